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
