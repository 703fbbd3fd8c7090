// The results database (drivers/ResultsDatabase.hpp): points read back exactly as written, a
// point solved again replaces the first, a fresh campaign forgets a run, and files that are not
// its database are refused by name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "kollective/drivers/Compare.hpp"
#include "kollective/drivers/ResultsDatabase.hpp"
#include "kollective/tests/TestHelpers.hpp"

namespace {

using kollective::Row;
using kollective::TextGroups;
using kollective::TextList;
using kollective::driver::ResultsDatabase;
using kollective::driver::SessionContext;
using kollective::driver::StoredPoint;
using kollective::test::error_of;

std::string fresh_path(const std::string& name) {
  const std::string path = testing::TempDir() + name;
  ResultsDatabase::remove(path);
  return path;
}

StoredPoint point_of(const std::string& run, std::size_t point, double seconds) {
  StoredPoint stored;
  stored.run = run;
  stored.point = point;
  stored.parameters = "{\"agents\": " + std::to_string(18 + point) + "}";
  stored.started = "2026-01-01T00:00:00.000Z";
  stored.ended = ResultsDatabase::now();
  Row row;
  row.set("run", run).set("agents", static_cast<int>(18 + point)).set("solve_s", seconds);
  row.set("count", std::uint64_t{18446744073709551615ull}).set("exact", true);
  row.set("winners", TextList{"A, Inc.", "B"}).set("structure", TextGroups{{"1", "2"}, {"3"}});
  stored.rows = {row, Row().set("run", run).set("note", "second row")};
  return stored;
}

}  // namespace

TEST(results_database, points_read_back_exactly_in_order) {
  const std::string path = fresh_path("points.sqlite");
  {
    ResultsDatabase database(path);
    const std::int64_t session = database.begin_session(SessionContext{"c.yaml", "0123456789abcdef"});
    for (std::size_t k : {2, 0, 1}) {
      StoredPoint point = point_of("sweep", k, 0.1 + 1.0 / 3 * k);
      point.session = session;
      database.add_point(point);
    }
    StoredPoint other = point_of("other", 0, 1.0);
    other.session = session;
    database.add_point(other);
    database.end_session(session, "completed");
  }
  ResultsDatabase reopened(path);  // as a resumed campaign or a later reader opens it
  const std::vector<StoredPoint> points = reopened.points("sweep");
  ASSERT_EQ(points.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    const StoredPoint expected = point_of("sweep", k, 0.1 + 1.0 / 3 * k);
    EXPECT_EQ(points[k].point, k);
    EXPECT_EQ(points[k].parameters, expected.parameters);
    ASSERT_EQ(points[k].rows.size(), 2u);
    for (std::size_t r = 0; r < 2; ++r) EXPECT_EQ(points[k].rows[r].cells(), expected.rows[r].cells()) << k << " " << r;
  }
  EXPECT_EQ(reopened.all_points().size(), 4u);
}

TEST(results_database, a_point_solved_again_replaces_it_and_a_run_can_be_forgotten) {
  const std::string path = fresh_path("replace.sqlite");
  ResultsDatabase database(path);
  const std::int64_t session = database.begin_session(SessionContext{"c.yaml", "0123456789abcdef"});
  for (std::size_t k : {0, 1}) {
    StoredPoint point = point_of("sweep", k, 1.0);
    point.session = session;
    database.add_point(point);
  }
  StoredPoint again = point_of("sweep", 0, 2.0);
  again.session = session;
  again.rows.pop_back();
  database.add_point(again);
  const auto points = database.points("sweep");
  ASSERT_EQ(points.size(), 2u);
  ASSERT_EQ(points[0].rows.size(), 1u);
  EXPECT_EQ(std::get<double>(*points[0].rows[0].find("solve_s")), 2.0);
  database.clear_run("sweep");
  EXPECT_TRUE(database.points("sweep").empty());
}

TEST(results_database, refuses_a_file_that_is_not_its_database) {
  const std::string text = fresh_path("not_a_database.sqlite");
  std::ofstream(text) << "run,solve_s\nsweep,1.0\n";
  EXPECT_NE(error_of([&] { ResultsDatabase database(text); }).find("not_a_database.sqlite"), std::string::npos);
  const std::string folder = testing::TempDir() + "no_such_folder/results.sqlite";
  EXPECT_NE(error_of([&] { ResultsDatabase database(folder); }).find("cannot be opened"), std::string::npos);
  EXPECT_EQ(kollective::driver::content_hash("runs: []\n"), kollective::driver::content_hash("runs: []\n"));
  EXPECT_NE(kollective::driver::content_hash("runs: []\n"), kollective::driver::content_hash("runs: [] \n"));
  EXPECT_EQ(kollective::driver::content_hash(""), "cbf29ce484222325");  // FNV-1a's offset basis
}

// kollective compare on two databases of one point: agreeing answers pass, a different optimum
// fails and is named, a point without a partner is counted.
TEST(results_database, compare_finds_a_differing_answer) {
  auto database_with = [](const std::string& name, double optimum, std::size_t points) {
    const std::string path = fresh_path(name);
    ResultsDatabase database(path);
    const std::int64_t session = database.begin_session(SessionContext{"c.yaml", "0"});
    for (std::size_t k = 0; k < points; ++k) {
      StoredPoint point = point_of("sweep", k, 1.0);
      point.session = session;
      point.rows.pop_back();
      point.rows[0].set("optimum", optimum + k);
      database.add_point(point);
    }
    return path;
  };
  const std::string a = database_with("compare_a.sqlite", 10.0, 2);
  const std::string same = database_with("compare_same.sqlite", 10.0 * (1 + 1e-9), 3);
  const std::string other = database_with("compare_other.sqlite", 10.5, 2);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  EXPECT_EQ(kollective::driver::compare_results(a, same, {}), 0);
  EXPECT_EQ(kollective::driver::compare_results(a, other, {}), 1);
  const std::string printed = testing::internal::GetCapturedStdout(), errors = testing::internal::GetCapturedStderr();
  EXPECT_NE(printed.find("2 points matched; only in A: 0; only in B: 1"), std::string::npos) << printed;
  EXPECT_NE(errors.find("answers differ: optimum"), std::string::npos) << errors;
}

// --fail-above judges B against A: B four times slower fails a gate of 2, B four times faster
// passes it, and the CSV's ratio is B / A.
TEST(results_database, compare_gates_on_b_over_a) {
  auto database_with = [](const std::string& name, double seconds) {
    const std::string path = fresh_path(name);
    ResultsDatabase database(path);
    const std::int64_t session = database.begin_session(SessionContext{"c.yaml", "0"});
    StoredPoint point = point_of("sweep", 0, seconds);
    point.session = session;
    database.add_point(point);
    return path;
  };
  const std::string fast = database_with("gate_fast.sqlite", 1.0), slow = database_with("gate_slow.sqlite", 4.0);
  const std::string table = testing::TempDir() + "gate.csv";
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  EXPECT_EQ(kollective::driver::compare_results(fast, slow, {table, 2.0}), 1);
  const std::string errors = testing::internal::GetCapturedStderr();
  testing::internal::CaptureStderr();
  EXPECT_EQ(kollective::driver::compare_results(slow, fast, {"", 2.0}), 0);
  testing::internal::GetCapturedStdout();
  testing::internal::GetCapturedStderr();
  EXPECT_NE(errors.find("slower"), std::string::npos) << errors;
  std::ifstream csv(table);
  const std::string text((std::istreambuf_iterator<char>(csv)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("solve_s,1.0,4.0,4"), std::string::npos) << text;
}
