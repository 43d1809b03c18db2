# Runs the pass's tests against another LLVM than the build's: lit
# --param massif_llvm=<N> switches %opt, %plugin, %clang and %clangxx to
# LLVM <N>'s tools and lib/massif-llvm<N>.so (built by llvm-pass/'s
# ExternalProject), sets MSCC_LLVM=<N> for mscc, and swaps the llvm-<build>
# feature for llvm-<N>. opt runs with -opaque-pointers before LLVM 15, so
# the .ll files (written with `ptr`) parse, and the output reads the same.
# %llvm_major is the LLVM version the tests run against, for check
# prefixes that differ between versions (LLVM<N>).
import os
import shutil


def select_llvm(config, lit_config, opaque_clang=False):
    """opaque_clang: %clang and %clangxx emit opaque pointers too (for tests
    that check clang's IR output); before LLVM 15 that is an option."""
    version = lit_config.params.get("massif_llvm") or config.massif_llvm_version
    config.substitutions.insert(0, ("%llvm_major", version))
    if version == config.massif_llvm_version:
        return
    tools = {}
    for tool in ("opt", "clang", "clang++"):
        path = shutil.which("%s-%s" % (tool, version))
        if not path:
            lit_config.fatal("massif_llvm=%s: %s-%s not found" % (version, tool, version))
        tools[tool] = path
    plugin = os.path.join(config.massif_obj_root, "lib", "massif-native",
                          "massif-llvm%s.so" % version)
    if not os.path.exists(plugin):
        lit_config.fatal("massif_llvm=%s: %s is missing (configure with "
                         "-DMASSIF_EXTRA_LLVM_VERSIONS=%s)" % (version, plugin, version))
    opt = tools["opt"]
    if int(version) < 15:
        # Before 15, opt parses its options before it loads pass plugins;
        # -load loads the plugin first, so its options exist.
        opt += " -opaque-pointers -load " + plugin
    clang, clangxx = tools["clang"], tools["clang++"]
    if opaque_clang and int(version) < 15:
        clang += " -mllvm -opaque-pointers"
        clangxx += " -mllvm -opaque-pointers"
    replace = {"%opt": opt, "%plugin": plugin, "%clangxx": clangxx,
               "%clang": clang}
    config.substitutions = [(k, replace.get(k, v)) for k, v in config.substitutions]
    config.environment["MSCC_LLVM"] = version
    config.environment["CONFORM_CLANG"] = tools["clang"]
    config.environment["CONFORM_CLANGXX"] = tools["clang++"]
    config.available_features.discard("llvm-" + config.massif_llvm_version)
    config.available_features.add("llvm-" + version)
