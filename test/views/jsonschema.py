#!/usr/bin/env python3
"""A small JSON Schema (draft 2020-12) validator, standard library only.

    jsonschema.py SCHEMA DOCUMENT...     validate each document; exit 1 with
                                         one line per error if any fails
    jsonschema.py --self-check SCHEMA GOOD_DOCUMENT
                                         test the validator: GOOD_DOCUMENT (a
                                         real --format=json export) must pass,
                                         with site statistics too (its own, or
                                         a small set made up here), and every
                                         broken copy made from it, and every
                                         broken schema, must fail;
                                         every member the schema names must
                                         have a description

It knows the keywords docs/schema/massif-profile.schema.json uses and no
more: type, const, enum, properties, required, additionalProperties,
items, minimum, minItems, pattern, dependentRequired, $ref (a JSON
pointer into the same schema, e.g. "#/$defs/node"), $defs, oneOf, anyOf,
and the annotations $schema, $id, title, description, $comment. A schema
with any other keyword, or a $ref that leads nowhere, is refused
(SchemaError) rather than half-checked. Documents are read strictly: NaN,
Infinity and duplicate object keys are errors.

As a module: load_json(path), validate(document, schema) -> [error, ...].
"""
import copy
import json
import math
import re
import sys

ANNOTATIONS = {"$schema", "$id", "title", "description", "$comment", "$defs"}
KEYWORDS = ANNOTATIONS | {
    "type", "const", "enum", "properties", "required", "additionalProperties",
    "items", "minimum", "minItems", "pattern", "dependentRequired", "$ref",
    "oneOf", "anyOf"}
TYPES = {"object", "array", "string", "integer", "number", "boolean", "null"}


class SchemaError(Exception):
    """The schema itself is wrong or uses a keyword this validator lacks."""


class DocumentError(Exception):
    """The document is not strict JSON."""


def _no_duplicates(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise DocumentError(f"duplicate key {key!r}")
        obj[key] = value
    return obj


def _no_constant(name):
    raise DocumentError(f"{name} is not JSON")


def loads(text):
    """Parses JSON text strictly."""
    return json.loads(text, object_pairs_hook=_no_duplicates,
                      parse_constant=_no_constant)


def load_json(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        return loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise DocumentError(f"not UTF-8: {e}")
    except json.JSONDecodeError as e:
        raise DocumentError(str(e))


def _type_of(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _is_type(value, name):
    actual = _type_of(value)
    if name == "number":
        return actual in ("integer", "number")
    if name == "integer" and actual == "number":
        return math.isfinite(value) and value == int(value)
    return actual == name


def _equal(a, b):
    """JSON equality: 1 == 1.0, but true != 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(_equal, a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _path(parent, key):
    if isinstance(key, int):
        return f"{parent}[{key}]"
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
        return f"{parent}.{key}"
    return f"{parent}[{json.dumps(key)}]"


class Validator:
    def __init__(self, schema):
        self.root = schema
        self.check_schema(schema, "#")

    # The schema -----------------------------------------------------------

    def resolve(self, ref):
        if not isinstance(ref, str) or not ref.startswith("#"):
            raise SchemaError(f"$ref {ref!r}: only '#/...' pointers are known")
        node = self.root
        if ref in ("#", "#/"):
            return node
        if not ref.startswith("#/"):
            raise SchemaError(f"$ref {ref!r}: not a JSON pointer")
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise SchemaError(f"$ref {ref!r} leads nowhere (no {part!r})")
        if not isinstance(node, (dict, bool)):
            raise SchemaError(f"$ref {ref!r} is not a schema")
        return node

    def check_schema(self, s, where):
        """Refuses keywords and values this validator would not check."""
        if isinstance(s, bool):
            return
        if not isinstance(s, dict):
            raise SchemaError(f"{where}: a schema must be an object or a boolean")
        for key in s:
            if key not in KEYWORDS:
                raise SchemaError(f"{where}: unknown keyword {key!r}")
        if "type" in s:
            types = s["type"] if isinstance(s["type"], list) else [s["type"]]
            for t in types:
                if t not in TYPES:
                    raise SchemaError(f"{where}: unknown type {t!r}")
        if "enum" in s and not isinstance(s["enum"], list):
            raise SchemaError(f"{where}: enum must be an array")
        if "required" in s and not all(isinstance(k, str) for k in s["required"]):
            raise SchemaError(f"{where}: required must list strings")
        if "minimum" in s and _type_of(s["minimum"]) not in ("integer", "number"):
            raise SchemaError(f"{where}: minimum must be a number")
        if "minItems" in s and _type_of(s["minItems"]) != "integer":
            raise SchemaError(f"{where}: minItems must be an integer")
        if "pattern" in s:
            try:
                re.compile(s["pattern"])
            except (re.error, TypeError) as e:
                raise SchemaError(f"{where}: bad pattern: {e}")
        if "dependentRequired" in s:
            dep = s["dependentRequired"]
            if not isinstance(dep, dict) or not all(
                    isinstance(v, list) and all(isinstance(k, str) for k in v)
                    for v in dep.values()):
                raise SchemaError(f"{where}: dependentRequired must map names to arrays of names")
        if "$ref" in s:
            self.resolve(s["$ref"])
        for key in ("properties", "$defs"):
            if key in s:
                if not isinstance(s[key], dict):
                    raise SchemaError(f"{where}/{key}: must be an object")
                for name, sub in s[key].items():
                    self.check_schema(sub, f"{where}/{key}/{name}")
        for key in ("additionalProperties", "items"):
            if key in s:
                self.check_schema(s[key], f"{where}/{key}")
        for key in ("oneOf", "anyOf"):
            if key in s:
                if not isinstance(s[key], list) or not s[key]:
                    raise SchemaError(f"{where}/{key}: must be a non-empty array")
                for i, sub in enumerate(s[key]):
                    self.check_schema(sub, f"{where}/{key}/{i}")

    # The document ---------------------------------------------------------

    def errors(self, value, s, path, out):
        """Appends "path: what" for each way value breaks schema s."""
        if s is True:
            return
        if s is False:
            out.append(f"{path}: no value is allowed here")
            return
        if "$ref" in s:
            self.errors(value, self.resolve(s["$ref"]), path, out)
        if "type" in s:
            types = s["type"] if isinstance(s["type"], list) else [s["type"]]
            if not any(_is_type(value, t) for t in types):
                out.append(f"{path}: {_type_of(value)} where {' or '.join(types)} was expected")
                return
        if "const" in s and not _equal(value, s["const"]):
            out.append(f"{path}: {json.dumps(value)[:60]} is not the constant {json.dumps(s['const'])}")
        if "enum" in s and not any(_equal(value, e) for e in s["enum"]):
            out.append(f"{path}: {json.dumps(value)[:60]} is not one of {json.dumps(s['enum'])}")
        if "minimum" in s and _type_of(value) in ("integer", "number") \
                and value < s["minimum"]:
            out.append(f"{path}: {value} is below the minimum {s['minimum']}")
        if "pattern" in s and isinstance(value, str) \
                and not re.search(s["pattern"], value):
            out.append(f"{path}: {json.dumps(value)[:60]} does not match {s['pattern']}")
        if isinstance(value, dict):
            self.object_errors(value, s, path, out)
        if isinstance(value, list):
            if "minItems" in s and len(value) < s["minItems"]:
                out.append(f"{path}: {len(value)} items, fewer than {s['minItems']}")
            if "items" in s:
                for i, item in enumerate(value):
                    self.errors(item, s["items"], _path(path, i), out)
        if "anyOf" in s:
            if not any(self.valid(value, sub, path) for sub in s["anyOf"]):
                out.append(f"{path}: matches none of anyOf: " +
                           self.closest(value, s["anyOf"], path))
        if "oneOf" in s:
            matched = sum(self.valid(value, sub, path) for sub in s["oneOf"])
            if matched == 0:
                out.append(f"{path}: matches none of oneOf: " +
                           self.closest(value, s["oneOf"], path))
            elif matched > 1:
                out.append(f"{path}: matches {matched} of oneOf, not exactly one")

    def object_errors(self, value, s, path, out):
        for name in s.get("required", []):
            if name not in value:
                out.append(f"{path}: required member {name!r} is missing")
        props = s.get("properties", {})
        for name, sub in props.items():
            if name in value:
                self.errors(value[name], sub, _path(path, name), out)
        if "additionalProperties" in s:
            for name in value:
                if name not in props:
                    self.errors(value[name], s["additionalProperties"],
                                _path(path, name), out)
        for name, needs in s.get("dependentRequired", {}).items():
            if name in value:
                for other in needs:
                    if other not in value:
                        out.append(f"{path}: {name!r} is present without {other!r}")

    def valid(self, value, s, path):
        out = []
        self.errors(value, s, path, out)
        return not out

    def closest(self, value, alternatives, path):
        """The errors of the alternative that failed least, for the message:
        first one of the value's type (an object is no null), then the one
        whose constants (a "kind") match, then the fewest."""
        best, best_rank = None, None
        for sub in alternatives:
            out = []
            self.errors(value, sub, path, out)
            wrong_type = any(e.startswith(path + ": ") and e.endswith(" was expected")
                             for e in out)
            mismatches = sum(" is not the constant " in e or " is not one of " in e
                             for e in out)
            rank = (wrong_type, mismatches, len(out))
            if best is None or rank < best_rank:
                best, best_rank = out, rank
        return "; ".join(best[:3])


def validate(document, schema):
    """The list of errors of document against schema (empty when valid)."""
    out = []
    Validator(schema).errors(document, schema, "$", out)
    return out


# Self-check ----------------------------------------------------------------

def _snapshot(doc, detailed):
    for s in doc["snapshots"]:
        if ("tree" in s) == detailed:
            return s
    raise LookupError


def _frame(doc, kind, member=None):
    for f in doc["frames"]:
        if f["kind"] == kind and (member is None or member in f):
            return f
    raise LookupError


def _site_stats(doc):
    """doc's sites, after giving it a small valid set when it has none:
    two sizes, the totals, two sites (one of two frames)."""
    if doc.get("sites") is None:
        code = [i for i, f in enumerate(doc["frames"]) if f["kind"] == "code"]
        if not code:
            raise LookupError
        doc["sites"] = {
            "sizes": [{"min": 0, "max": 0, "calls": 1},
                      {"min": 1, "max": 1, "calls": 2}],
            "total": {"calls": 3, "bytes": 2, "temporary": 1, "temporary_bytes": 1,
                      "leaked_blocks": 1, "leaked_bytes": 1},
            "list": [{"calls": 2, "bytes": 2, "temporary": 1, "temporary_bytes": 1,
                      "leaked_blocks": 1, "leaked_bytes": 1, "frames": code[:2]},
                     {"calls": 1, "bytes": 0, "temporary": 0, "temporary_bytes": 0,
                      "leaked_blocks": 0, "leaked_bytes": 0, "frames": code[:1]}]}
    return doc["sites"]


def _node_with_children(doc):
    """The first tree node that has children."""
    for s in doc["snapshots"]:
        stack = [s["tree"]] if "tree" in s else []
        while stack:
            n = stack.pop()
            if "children" in n:
                return n
    raise LookupError


def broken_documents():
    """(name, expected error, mutation): each mutation breaks a copy of a
    valid export, and the validator must say so with that text."""
    def top(key, value):
        def m(d):
            d[key] = value
        return m

    def drop_top(key):
        def m(d):
            del d[key]
        return m

    def snap(detailed, key, value=None, drop=False):
        def m(d):
            s = _snapshot(d, detailed)
            if drop:
                del s[key]
            else:
                s[key] = value
        return m

    def frame(kind, key, value=None, drop=False, member=None):
        def m(d):
            f = _frame(d, kind, member)
            if drop:
                del f[key]
            else:
                f[key] = value
        return m

    def node(key, value=None, drop=False):
        def m(d):
            n = _node_with_children(d)["children"][0]
            if drop:
                del n[key]
            else:
                n[key] = value
        return m

    def sites(edit):
        def m(d):
            edit(_site_stats(d))
        return m

    def site(key, value=None, drop=False):
        def m(d):
            st = _site_stats(d)["list"][0]
            if drop:
                del st[key]
            else:
                st[key] = value
        return m

    nodes = _node_with_children
    return [
        # Wrong types.
        ("version is a string", '$.version: "2" is not the constant 2',
         top("version", "2")),
        ("desc is a number", "$.desc: integer where string was expected",
         top("desc", 3)),
        ("frames is an object", "$.frames: object where array was expected",
         top("frames", {})),
        ("mem_heap_B is a string",
         ".mem_heap_B: string where integer was expected",
         snap(False, "mem_heap_B", "5")),
        ("time is a fraction", ".time: number where integer was expected",
         snap(False, "time", 1.5)),
        ("time is a boolean", ".time: boolean where integer was expected",
         snap(False, "time", True)),
        ("node bytes is null",
         ".children[0].bytes: null where integer was expected",
         node("bytes", None)),
        ("peak is a string",
         "$.peak: string where integer or null was expected",
         top("peak", "0")),
        ("line is a string", ".line: string where integer was expected",
         frame("code", "line", "10", member="file")),
        ("children is an object",
         ".children: object where array was expected",
         lambda d: nodes(d).update(children={})),
        ("a snapshot is an array", "array where object was expected",
         lambda d: d["snapshots"].append([])),
        # Missing required members.
        ("no frames", "$: required member 'frames' is missing",
         drop_top("frames")),
        ("no format", "$: required member 'format' is missing",
         drop_top("format")),
        ("snapshot without time", "required member 'time' is missing",
         snap(False, "time", drop=True)),
        ("detailed snapshot without tree",
         "required member 'tree' is missing",
         snap(True, "tree", drop=True)),
        ("node without frame",
         ".children[0]: required member 'frame' is missing",
         node("frame", drop=True)),
        ("code frame without function",
         "required member 'function' is missing",
         frame("code", "function", drop=True)),
        ("insignificant frame without places",
         "required member 'places' is missing",
         frame("insignificant", "places", drop=True)),
        ("file without line", "'file' is present without 'line'",
         frame("code", "line", drop=True, member="file")),
        # Extra members.
        ("extra top-level member", "$.extra: no value is allowed here",
         top("extra", 1)),
        ("extra snapshot member", ".mem_total_B: no value is allowed here",
         snap(False, "mem_total_B", 0)),
        ("empty snapshot with a tree", ".tree: no value is allowed here",
         lambda d: _snapshot(d, False).update(tree={"bytes": 0, "frame": 0})),
        ("extra node member", ".children[0].name: no value is allowed here",
         node("name", "x")),
        ("root frame with a function",
         "$.frames[0].function: no value is allowed here",
         frame("root", "function", "malloc")),
        ("insignificant frame with an address",
         ".address: no value is allowed here",
         frame("insignificant", "address", "0x1")),
        # Bad constants and enums.
        ("format is another",
         '$.format: "massif" is not the constant "massif-native-profile"',
         top("format", "massif")),
        ("version 1", "$.version: 1 is not the constant 2",
         top("version", 1)),
        ("time_unit s", '$.time_unit: "s" is not one of ["i", "ms", "B"]',
         top("time_unit", "s")),
        ("heap_tree other",
         '.heap_tree: "other" is not one of ["detailed", "peak"]',
         snap(True, "heap_tree", "other")),
        ("heap_tree empty with a tree", ".tree: no value is allowed here",
         snap(True, "heap_tree", "empty")),
        ("frame kind leaf", '.kind: "leaf" is not the constant "code"',
         frame("code", "kind", "leaf")),
        ("root frame kind code", "$.frames[0]: matches none of oneOf",
         frame("root", "kind", "code")),
        # Negative or out-of-range numbers.
        ("negative node bytes",
         ".children[0].bytes: -1 is below the minimum 0",
         node("bytes", -1)),
        ("negative mem_heap_B", ".mem_heap_B: -5 is below the minimum 0",
         snap(True, "mem_heap_B", -5)),
        ("negative mem_stacks_B", ".mem_stacks_B: -1 is below the minimum 0",
         snap(False, "mem_stacks_B", -1)),
        ("negative frame index",
         ".children[0].frame: -1 is below the minimum 0",
         node("frame", -1)),
        ("negative peak", "$.peak: -1 is below the minimum 0",
         top("peak", -1)),
        ("negative line", ".line: -3 is below the minimum 0",
         frame("code", "line", -3, member="file")),
        # Patterns and array sizes.
        ("address without 0x", '.address: "10931B" does not match',
         frame("code", "address", "10931B", member="address")),
        ("empty children", ".children: 0 items, fewer than 1",
         lambda d: nodes(d).update(children=[])),
        # The site statistics.
        ("no sites", "$: required member 'sites' is missing",
         drop_top("sites")),
        ("sites is a list", "$.sites: matches none of anyOf",
         top("sites", [])),
        ("sites without total", "$.sites: required member 'total' is missing",
         sites(lambda st: st.pop("total"))),
        ("sites with an extra member", "$.sites.peak: no value is allowed here",
         sites(lambda st: st.update(peak=0))),
        ("size bucket without max", "$.sites.sizes[0]: required member 'max' is missing",
         sites(lambda st: st["sizes"][0].pop("max"))),
        ("negative size bucket calls", "$.sites.sizes[1].calls: -2 is below the minimum 0",
         sites(lambda st: st["sizes"][1].update(calls=-2))),
        ("total without leaked_bytes",
         "$.sites.total: required member 'leaked_bytes' is missing",
         sites(lambda st: st["total"].pop("leaked_bytes"))),
        ("site without frames", "$.sites.list[0]: required member 'frames' is missing",
         site("frames", drop=True)),
        ("site with no frame", "$.sites.list[0].frames: 0 items, fewer than 1",
         site("frames", [])),
        ("site frame a string",
         "$.sites.list[0].frames[0]: string where integer was expected",
         site("frames", ["0x1: f"])),
        ("negative site calls", "$.sites.list[0].calls: -1 is below the minimum 0",
         site("calls", -1)),
        ("site temporary a fraction",
         "$.sites.list[0].temporary: number where integer was expected",
         site("temporary", 0.5)),
        ("site with an extra member",
         "$.sites.list[0].peak_bytes: no value is allowed here",
         site("peak_bytes", 1)),
    ]


def broken_schemas(schema):
    """(name, schema) pairs the validator must refuse outright."""
    out = []

    def variant(name, edit):
        s = copy.deepcopy(schema)
        edit(s)
        out.append((name, s))

    variant("$ref to a missing $defs entry",
            lambda s: s["properties"]["frames"]["items"].update({"$ref": "#/$defs/nothing"}))
    variant("$ref into another document",
            lambda s: s["properties"]["frames"]["items"].update({"$ref": "other.json#/x"}))
    variant("$ref to a number",
            lambda s: s["$defs"]["node"].update({"$ref": "#/$defs/bytes/minimum"}))
    variant("unknown keyword",
            lambda s: s["$defs"]["bytes"].update({"maximum": 10}))
    variant("unknown type",
            lambda s: s["$defs"]["bytes"].update({"type": "int"}))
    variant("bad pattern",
            lambda s: s["$defs"]["codeFrame"]["properties"]["address"].update({"pattern": "(("}))
    return out


def undescribed(schema):
    """Members of the schema's objects without a description (their own or
    that of the schema their $ref names)."""
    v = Validator(schema)
    out = []

    def walk(s, where):
        if not isinstance(s, dict):
            return
        for name, sub in s.get("properties", {}).items():
            target = sub
            while isinstance(target, dict) and "description" not in target \
                    and "$ref" in target:
                target = v.resolve(target["$ref"])
            if not isinstance(target, dict) or "description" not in target:
                out.append(f"{where}/properties/{name}")
            walk(sub, f"{where}/properties/{name}")
        for key in ("$defs",):
            for name, sub in s.get(key, {}).items():
                walk(sub, f"{where}/{key}/{name}")
        for key in ("items", "additionalProperties"):
            if key in s:
                walk(s[key], f"{where}/{key}")
        for key in ("oneOf", "anyOf"):
            for i, sub in enumerate(s.get(key, [])):
                walk(sub, f"{where}/{key}/{i}")

    walk(schema, "#")
    return out


def self_check(schema, good):
    failures = []
    for where in undescribed(schema):
        failures.append(f"the schema does not describe {where}")
    errors = validate(good, schema)
    if errors:
        failures.append("the good document is refused: " + "; ".join(errors[:5]))
    with_sites = copy.deepcopy(good)
    try:
        _site_stats(with_sites)
        errors = validate(with_sites, schema)
        if errors:
            failures.append("the good document with site statistics is refused: "
                            + "; ".join(errors[:5]))
    except LookupError:
        failures.append("the good document has no code frame for its sites")
    rejected = 0
    for name, expected, mutate in broken_documents():
        doc = copy.deepcopy(good)
        try:
            mutate(doc)
        except LookupError:
            failures.append(f"{name}: the good document has nothing to break "
                            "(use an export with every kind of frame)")
            continue
        errors = validate(doc, schema)
        if not errors:
            failures.append(f"{name}: accepted")
        elif not any(expected in e for e in errors):
            failures.append(f"{name}: refused, but not with {expected!r}: "
                            + "; ".join(errors[:3]))
        else:
            rejected += 1
            print(f"rejected ({name}): {errors[0]}")
    refused = 0
    for name, bad in broken_schemas(schema):
        try:
            validate(good, bad)
            failures.append(f"schema with {name}: accepted")
        except SchemaError as e:
            refused += 1
            print(f"refused schema ({name}): {e}")
    # Strict reading.
    for name, text in [("NaN", '{"a": NaN}'), ("Infinity", '[Infinity]'),
                       ("duplicate key", '{"a": 1, "a": 2}')]:
        try:
            loads(text)
            failures.append(f"document with {name}: read")
        except DocumentError as e:
            refused += 1
            print(f"refused document ({name}): {e}")
    for f in failures:
        print(f"FAIL: {f}")
    print(f"self-check: {rejected} broken documents rejected, "
          f"{refused} broken schemas and texts refused, {len(failures)} failures")
    return not failures


def main(argv):
    sys.setrecursionlimit(100000)
    if len(argv) == 4 and argv[1] == "--self-check":
        schema = load_json(argv[2])
        return 0 if self_check(schema, load_json(argv[3])) else 1
    if len(argv) < 3 or argv[1].startswith("-"):
        sys.stderr.write(__doc__)
        return 2
    schema = load_json(argv[1])
    status = 0
    for path in argv[2:]:
        try:
            errors = validate(load_json(path), schema)
        except (DocumentError, OSError) as e:
            errors = [str(e)]
        for e in errors[:20]:
            print(f"{path}: {e}")
        if errors:
            status = 1
        else:
            print(f"{path}: valid")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
