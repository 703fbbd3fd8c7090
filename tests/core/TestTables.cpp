#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <filesystem>
#include <fstream>
#include <set>

#include "kollective/core/Csv.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/ResultFiles.hpp"
#include "kollective/core/RuntimeInfo.hpp"
#include "kollective/core/Tables.hpp"
#include "kollective/tests/TestHelpers.hpp"

using namespace kollective;

TEST(tables, every_row_carries_runtime_columns_in_all_formats) {
  Table table("demo");
  Row row;
  row.set("n", 4096).set("rate", 1.5).set("label", "a,b|c").set("ok", true);
  table.add(row);
  const auto& info = runtime_info();
  for (const std::string& text : {table.markdown(), table.csv(), table.json()}) {
    EXPECT_NE(text.find(info.backend), std::string::npos) << text;
    EXPECT_NE(text.find(info.revision), std::string::npos) << text;
    EXPECT_NE(text.find(info.kokkos_version), std::string::npos) << text;
  }
  EXPECT_NE(table.csv().find("\"a,b|c\""), std::string::npos);
  EXPECT_NE(table.markdown().find("a,b\\|c"), std::string::npos);
  EXPECT_NE(table.json().find("\"n\": 4096"), std::string::npos);
  EXPECT_NE(table.json().find("\"ok\": true"), std::string::npos);
  EXPECT_EQ(table.columns().front(), "n");
}

TEST(tables, markdown_rounds_for_reading_and_states_shared_runtime_columns_once) {
  Table table("reading");
  table.add(Row().set("seconds", 0.012345678901).set("value", 165.35267512).set("n", 30));
  table.add(Row().set("seconds", 2.0).set("value", -3.25e-9).set("n", 31));
  const std::string markdown = table.markdown();
  EXPECT_NE(markdown.find("| 0.0123457 | 165.353 | 30 |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("| 2 | -3.25e-09 | 31 |"), std::string::npos) << markdown;
  EXPECT_EQ(markdown.find("| backend |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("\nbackend " + runtime_info().backend + ", device "), std::string::npos) << markdown;
  EXPECT_NE(table.csv().find("0.012345678901"), std::string::npos);  // full precision stays in CSV
}

TEST(csv, fields_follow_rfc_4180) {
  EXPECT_EQ(csv_record({"1", "Alpha, Inc.", "B \"quoted\"", "two\nlines", ""}),
            "1,\"Alpha, Inc.\",\"B \"\"quoted\"\"\",\"two\nlines\",\r\n");
  EXPECT_EQ(csv_record({"plain"}), "plain\r\n");
  // A lone CR ends a record for RFC 4180 readers (Python's csv): a name holding one is quoted.
  EXPECT_EQ(csv_record({"a\rb"}), "\"a\rb\"\r\n");
}

TEST(csv, doubles_read_back_exactly_and_stay_floats) {
  for (double value : {11.219611525535583, 0.1, 1.0 / 3.0, 1e-7, 123456789.123, -2.5e300, 5e-324}) {
    const std::string text = exact_text(value);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), value) << text;
  }
  EXPECT_EQ(exact_text(1.0), "1.0");
  EXPECT_EQ(exact_text(8.5), "8.5");
  EXPECT_THROW(exact_text(std::numeric_limits<double>::infinity()), Error);
  EXPECT_EQ(doubled_votes_text(17), "8.5");
  EXPECT_EQ(doubled_votes_text(-1), "-0.5");  // signed weights: distances below 0
  EXPECT_EQ(doubled_votes_text(-3), "-1.5");
  EXPECT_EQ(doubled_votes_text(-4), "-2");
  EXPECT_EQ(doubled_votes_text(std::numeric_limits<long long>::min()), "-4611686018427387904");
}

TEST(tables, cells_are_typed_and_lists_are_arrays) {
  Table table("typed");
  Row row;
  row.set("distance", 8.0)
      .set("count", std::uint64_t{18446744073709551615ull})
      .set("winners", TextList{"Alpha, Inc.", "B \"q\""})
      .set("ranking", TextGroups{{"A"}, {"B", "C"}});
  table.add(row);
  const std::string json = table.json();
  EXPECT_NE(json.find("\"distance\": 8.0"), std::string::npos) << json;
  EXPECT_NE(json.find("\"count\": 18446744073709551615"), std::string::npos) << json;
  EXPECT_NE(json.find("\"winners\": [\"Alpha, Inc.\",\"B \\\"q\\\"\"]"), std::string::npos) << json;
  EXPECT_NE(json.find("\"ranking\": [[\"A\"],[\"B\",\"C\"]]"), std::string::npos) << json;
  // In CSV a list is its JSON array, quoted as one field.
  EXPECT_NE(table.csv().find(",\"[\"\"Alpha, Inc.\"\",\"\"B \\\"\"q\\\"\"\"\"]\","), std::string::npos) << table.csv();
}

TEST(tables, non_finite_results_are_refused) {
  Row row;
  EXPECT_THROW(row.set("ndcg", std::nan("")), Error);
  EXPECT_THROW(row.set("rate", -std::numeric_limits<double>::infinity()), Error);
}

TEST(tables, json_strings_are_valid_utf8) {
  EXPECT_EQ(json_string("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
  EXPECT_EQ(json_string("bad\xff"), "\"bad\\ufffd\"");
  EXPECT_EQ(json_string("tab\tcr\r"), "\"tab\\tcr\\r\"");
}

TEST(result_files, names_that_could_leave_the_folder_are_unsafe) {
  for (const char* name : {"", "../x", "a/b", ".hidden", "-flag", "x y", "caf\xc3\xa9"}) {
    EXPECT_FALSE(is_safe_file_name(name)) << name;
  }
  for (const char* name : {"run_1", "Schulze-2.5", "a"}) EXPECT_TRUE(is_safe_file_name(name)) << name;
  EXPECT_FALSE(is_safe_file_name(std::string(101, 'a')));
}

TEST(result_files, files_appear_only_when_committed) {
  const std::filesystem::path folder = std::filesystem::current_path() / "result_files_test";
  std::filesystem::remove_all(folder);
  prepare_output_folder(folder.string());
  {
    ResultFiles files(folder.string());
    files.write("failed.csv", "x\r\n");
  }  // never committed: removed
  EXPECT_TRUE(std::filesystem::is_empty(folder));
  {
    ResultFiles files(folder.string());
    files.write("done.csv", "y\r\n");
    EXPECT_FALSE(std::filesystem::exists(folder / "done.csv"));
    files.commit();
  }
  EXPECT_TRUE(std::filesystem::exists(folder / "done.csv"));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder), std::filesystem::directory_iterator()), 1);
  std::filesystem::remove_all(folder);
  EXPECT_THROW(prepare_output_folder("/proc/no_such_folder/x"), Error);
}

TEST(result_files, kept_files_wait_pending_until_committed_and_outlive_a_failed_run) {
  const std::filesystem::path folder = std::filesystem::current_path() / "result_files_pending";
  const std::string pending = (folder / "results.pending" / "run").string();
  std::filesystem::remove_all(folder);
  prepare_output_folder(folder.string());
  {
    ResultFiles files(folder.string(), nullptr, pending);
    files.write("run_n1.csv", "1\r\n");
    files.keep();  // a finished point
    files.write("run_n2.csv", "2\r\n");
  }  // the run failed at its second point: the first point's file waits, the second's goes
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(pending) / "run_n1.csv"));
  EXPECT_FALSE(std::filesystem::exists(folder / "run_n1.csv"));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder), std::filesystem::directory_iterator()), 1);
  std::set<std::string> written;
  {
    ResultFiles files(folder.string(), &written, pending);  // the run resumed: its second point again
    files.write("run_n2.csv", "2\r\n");
    files.keep();
    files.write("run.csv", "table\r\n");
    files.commit();
    commit_pending(pending, folder.string(), &written);
  }
  for (const char* name : {"run_n1.csv", "run_n2.csv", "run.csv"}) {
    EXPECT_TRUE(std::filesystem::exists(folder / name)) << name;
    EXPECT_EQ(written.count((folder / name).string()), 1U) << name;
  }
  EXPECT_FALSE(std::filesystem::exists(folder / "results.pending"));  // emptied, removed
  std::filesystem::remove_all(folder);
}

TEST(result_files, an_output_folder_with_an_overlong_name_is_refused_before_any_folder_is_made) {
  const std::filesystem::path base = std::filesystem::current_path() / "output_folder_test";
  std::filesystem::remove_all(base);
  std::filesystem::create_directory(base);
  const std::string too_long = (base / "made" / "also" / std::string(300, 'x')).string();  // NAME_MAX is 255
  const std::string message = test::error_of([&] { prepare_output_folder(too_long); });
  EXPECT_NE(message.find("cannot create output folder"), std::string::npos) << message;
  EXPECT_NE(message.find("a name in it is longer than 255 bytes"), std::string::npos) << message;
  EXPECT_FALSE(std::filesystem::exists(base / "made"));
  std::filesystem::remove_all(base);
}

TEST(result_files, run_names_that_could_share_a_file_are_found_before_running) {
  EXPECT_TRUE(result_names_may_collide("a", "a_ranking"));  // a_ranking.csv
  EXPECT_TRUE(result_names_may_collide("a", "a_n1000"));    // a_n1000_rankings.csv of a sweep
  EXPECT_FALSE(result_names_may_collide("a", "a_v2"));      // a second version of a run
  EXPECT_FALSE(result_names_may_collide("a", "a_double"));
  EXPECT_FALSE(result_names_may_collide("a", "ab_ranking"));
  EXPECT_FALSE(result_names_may_collide("a_ranking", "a"));  // the shorter name comes first
}

TEST(result_files, a_later_run_never_replaces_an_earlier_runs_file) {
  // Run `a` writes a_ranking.csv; a run named `a_ranking` would write its table there.
  const std::filesystem::path folder = std::filesystem::current_path() / "result_files_clash";
  std::filesystem::remove_all(folder);
  prepare_output_folder(folder.string());
  std::set<std::string> written;
  {
    ResultFiles run_a(folder.string(), &written);
    run_a.write("a_ranking.csv", "first\r\n");
    run_a.commit();
  }
  std::string message;
  {
    ResultFiles run_a_ranking(folder.string(), &written);
    try {
      run_a_ranking.write("a_ranking.csv", "second\r\n");
    } catch (const Error& e) {
      message = e.what();
    }
  }
  EXPECT_NE(message.find("a_ranking.csv' was already written by an earlier run of this config"), std::string::npos)
      << message;
  std::ifstream kept(folder / "a_ranking.csv");
  std::string line;
  std::getline(kept, line);
  EXPECT_EQ(line, "first\r");
  std::filesystem::remove_all(folder);
}

TEST(result_files, the_longest_run_name_has_room_for_its_suffixes) {
  const std::string run = std::string(100, 'a');
  ASSERT_TRUE(is_safe_file_name(run));
  const std::filesystem::path folder = std::filesystem::current_path() / "result_files_long";
  std::filesystem::remove_all(folder);
  prepare_output_folder(folder.string());
  {
    ResultFiles files(folder.string());
    files.write(run + "_n1000000_v1000000000_rankings.csv", "x\r\n");
    files.commit();
  }
  EXPECT_TRUE(std::filesystem::exists(folder / (run + "_n1000000_v1000000000_rankings.csv")));
  std::filesystem::remove_all(folder);
}

TEST(result_files, a_folder_in_a_files_place_stops_the_commit_before_any_rename) {
  const std::filesystem::path folder = std::filesystem::current_path() / "result_files_folder";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder / "r.csv");
  {
    ResultFiles files(folder.string());
    files.write("r_ranking.csv", "x\r\n");
    files.write("r.csv", "y\r\n");
    EXPECT_THROW(files.commit(), Error);
  }
  EXPECT_FALSE(std::filesystem::exists(folder / "r_ranking.csv"));
  std::filesystem::remove_all(folder);
}
