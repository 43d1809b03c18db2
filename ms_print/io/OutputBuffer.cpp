//===- OutputBuffer.cpp - A buffered writer for stdout --------------------===//
//
// Part of massif-native, under the MIT licence.
//
// write(2) loop for OutputBuffer: retries interrupted and partial writes;
// on any other error the rest of the output is dropped, as a Perl print
// to a broken stream would be, and the error is kept for those who ask. A negative descriptor discards everything.
//
//===----------------------------------------------------------------------===//

#include "OutputBuffer.h"

#include <cerrno>
#include <unistd.h>

namespace msprint {

void OutputBuffer::flush() {
  if (Fd < 0 || Error) {
    Buffer.clear();
    return;
  }
  const char *P = Buffer.data();
  size_t Left = Buffer.size();
  while (Left > 0) {
    ssize_t N = ::write(Fd, P, Left);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      Error = errno;
      break;
    }
    P += N;
    Left -= size_t(N);
  }
  Buffer.clear();
}

} // namespace msprint
