#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <functional>

#include "kollective/core/Error.hpp"
#include "kollective/core/TextInput.hpp"
#include "kollective/tests/TestHelpers.hpp"

namespace {
using kollective::test::error_of;
}  // namespace

TEST(text_input, only_regular_files_are_inputs) {
  using kollective::check_input_file;
  EXPECT_EQ(error_of([] { check_input_file("no_such_file.soc", "PrefLib file"); }),
            "PrefLib file 'no_such_file.soc' does not exist");
  EXPECT_EQ(error_of([] { check_input_file(".", "PrefLib file"); }), "PrefLib file '.' is a folder, not a file");
  EXPECT_EQ(error_of([] { check_input_file("/dev/zero", "config"); }),
            "config '/dev/zero' is not a regular file (a device); save the data to a file");
  // A pipe with no writer would block the reader forever (in the build tree, removed after).
  const std::string fifo = "text_input_test.fifo";
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string message = error_of([&] { check_input_file(fifo, "LETOR file"); });
  std::filesystem::remove(fifo);
  EXPECT_EQ(message, "LETOR file 'text_input_test.fifo' is not a regular file (a pipe); save the data to a file");
}

namespace kollective::test {

TEST(text_input, messages_quote_an_inputs_bytes_printably) {
  // A file's bytes in a message must not move a terminal's cursor (ESC [2K erases the line) or
  // garble it; UTF-8 names, line breaks and tabs stay as they are.
  const std::string message =
      error_of([] { fail_at("f.txt", 3, "label '", std::string("\x1b[2K\xff\r\x7f"), "' for 'caf\xc3\xa9'\tx\ny"); });
  EXPECT_EQ(message, "f.txt:3: label '\\x1b[2K\\xff\\x0d\\x7f' for 'caf\xc3\xa9'\tx\ny");
  EXPECT_EQ(Impl::printable("\xed\xa0\x80 \xc0\xaf \xf4\x90\x80\x80 \xf0\x9d\x84\x9e"),
            "\\xed\\xa0\\x80 \\xc0\\xaf \\xf4\\x90\\x80\\x80 \xf0\x9d\x84\x9e");
  // A backslash is doubled: an input's own text "\x1b" (four characters) is not an escaped byte.
  EXPECT_EQ(Impl::printable("a\\x1b\x1b"), "a\\\\x1b\\x1b");
  EXPECT_EQ(Impl::printable("\xc2\x9b"
                            "2K \xc2\xa0"),
            "\\xc2\\x9b"
            "2K \xc2\xa0");  // C1's CSI; a no-break space stays
}

TEST(text_input, messages_are_made_printable_once) {
  // A context added around an error escapes itself only: the message inside was escaped when made.
  const std::string message = error_of(
      [] { with_context("run 'a\\b'", [] { fail_at("f.txt", 2, "label '", std::string("x\\y\x1b"), "'"); }); });
  EXPECT_EQ(message, "run 'a\\\\b': f.txt:2: label 'x\\\\y\\x1b'");
  // What is printed: a kollective::Error's message as it is, any other exception's made printable.
  EXPECT_EQ(Impl::message_of(Error("a\\\\b")), "a\\\\b");
  EXPECT_EQ(Impl::message_of(std::runtime_error("a\\b\x1b")), "a\\\\b\\x1b");
  EXPECT_EQ(Impl::error_message(Error("a\\\\b")), "a\\\\b");
  EXPECT_EQ(Impl::error_message(std::runtime_error("a\\b\x1b")), "internal error: a\\\\b\\x1b");
}

}  // namespace kollective::test
