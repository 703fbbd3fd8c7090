#include "kollective/drivers/ResultsDatabase.hpp"

#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <functional>
#include <memory>

#include "kollective/core/Error.hpp"

namespace kollective::driver {

namespace {

constexpr int schema_version = 1;

constexpr const char* schema = R"sql(
CREATE TABLE IF NOT EXISTS kollective (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
  id INTEGER PRIMARY KEY, config TEXT NOT NULL, config_hash TEXT NOT NULL, revision TEXT NOT NULL,
  backend TEXT NOT NULL, device TEXT NOT NULL, kokkos TEXT NOT NULL, host TEXT NOT NULL,
  ranks INTEGER NOT NULL, started TEXT NOT NULL, ended TEXT, status TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS points (
  run TEXT NOT NULL, point INTEGER NOT NULL, session INTEGER NOT NULL REFERENCES sessions(id),
  rank INTEGER NOT NULL, parameters TEXT NOT NULL, started TEXT NOT NULL, ended TEXT NOT NULL,
  PRIMARY KEY (run, point));
CREATE TABLE IF NOT EXISTS run_keys (
  run TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (run, key));
CREATE TABLE IF NOT EXISTS rows (
  run TEXT NOT NULL, point INTEGER NOT NULL, row INTEGER NOT NULL, cells TEXT NOT NULL, encoded BLOB NOT NULL,
  PRIMARY KEY (run, point, row), FOREIGN KEY (run, point) REFERENCES points(run, point) ON DELETE CASCADE);
CREATE TABLE IF NOT EXISTS columns (
  name TEXT PRIMARY KEY, kind TEXT NOT NULL, unit TEXT NOT NULL, meaning TEXT NOT NULL);
)sql";

/// A prepared statement, finalized when it goes.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql, const std::string& path) : db_(db), path_(path) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement_, nullptr) != SQLITE_OK) problem("prepare");
  }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement() { sqlite3_finalize(statement_); }

  Statement& bind(int index, const std::string& text) {
    check(sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT));
    return *this;
  }
  Statement& bind(int index, std::int64_t value) {
    check(sqlite3_bind_int64(statement_, index, value));
    return *this;
  }
  Statement& bind_blob(int index, const std::string& bytes) {
    check(sqlite3_bind_blob(statement_, index, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT));
    return *this;
  }
  /// Steps once: true while a row is there to read.
  bool step() {
    const int status = sqlite3_step(statement_);
    if (status == SQLITE_ROW) return true;
    if (status != SQLITE_DONE) problem("write");
    return false;
  }
  /// Ready to step again with new bindings.
  void reset() { sqlite3_reset(statement_); }
  std::int64_t integer(int column) const { return sqlite3_column_int64(statement_, column); }
  std::string text(int column) const {
    const auto* bytes = static_cast<const char*>(sqlite3_column_blob(statement_, column));
    return bytes ? std::string(bytes, sqlite3_column_bytes(statement_, column)) : std::string();
  }

 private:
  void check(int status) {
    if (status != SQLITE_OK) problem("bind");
  }
  [[noreturn]] void problem(const char* what) const {
    fail("results database '", path_, "': ", what, " failed: ", sqlite3_errmsg(db_));
  }
  sqlite3* db_;
  const std::string& path_;
  sqlite3_stmt* statement_ = nullptr;
};

/// A row as a JSON object of its cells, typed as in the tables' JSON.
std::string cells_json(const Row& row) {
  std::string json = "{";
  for (const auto& [column, cell] : row.cells()) {
    if (json.size() > 1) json += ", ";
    json += json_string(column) + ": " + to_json(cell);
  }
  return json + "}";
}

}  // namespace

std::string ResultsDatabase::path_in(const std::string& folder, int rank) {
  return folder + "/" + (rank == 0 ? std::string("results.sqlite") : "results.rank" + std::to_string(rank) + ".sqlite");
}

ResultsDatabase::ResultsDatabase(const std::string& path, Access access) : path_(path) {
  // A reader opens read-write too (it writes nothing) where it may: the last connection to close
  // then folds the WAL back and removes it, where a read-only one would leave the -wal and -shm
  // files beside the database. SQLite opens a file it may not write read-only.
  const int flags = access == Access::read ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string reason = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    fail("results database '", path, "' cannot be opened: ", reason);
  }
  try {
    sqlite3_busy_timeout(db_, 10000);  // a reader (Python, compare) holds it briefly
    if (access == Access::write) {
      // WAL: a commit is one append, readers never block the writer; FULL: a commit is on disk
      // before the point is reported done, so a node failure keeps it too.
      execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;");
      execute(std::string("BEGIN IMMEDIATE;") + schema + "COMMIT;");
    }
    if (access == Access::read) {  // an SQLite file of other tables, or none
      Statement table(db_, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kollective'", path_);
      if (!table.step()) fail("'", path, "' is not a Kollective results database");
    }
    Statement version(db_, "SELECT value FROM kollective WHERE key = 'schema_version'", path_);
    if (!version.step()) {
      if (access == Access::read) fail("'", path, "' is not a Kollective results database");
      execute("INSERT INTO kollective VALUES ('schema_version', '" + std::to_string(schema_version) + "');");
    } else if (version.text(0) != std::to_string(schema_version)) {
      fail("results database '", path, "' has schema version ", version.text(0), "; this kollective reads version ",
           schema_version, " (a newer kollective wrote it?)");
    }
  } catch (...) {
    sqlite3_close(db_);
    throw;
  }
}

ResultsDatabase::~ResultsDatabase() { sqlite3_close(db_); }

void ResultsDatabase::execute(const std::string& sql) const {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string reason = message ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    sqlite3_exec(db_, "ROLLBACK;", nullptr, nullptr, nullptr);  // no-op outside a transaction
    fail("results database '", path_, "': ", reason);
  }
}

void ResultsDatabase::in_transaction(const std::function<void()>& work) {
  execute("BEGIN IMMEDIATE;");
  try {
    work();
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK;", nullptr, nullptr, nullptr);
    throw;
  }
  execute("COMMIT;");
}

void ResultsDatabase::remove(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}

std::int64_t ResultsDatabase::begin_session(const SessionContext& context) {
  Statement insert(db_,
                   "INSERT INTO sessions (config, config_hash, revision, backend, device, kokkos, host, ranks, "
                   "started, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running')",
                   path_);
  insert.bind(1, context.config_path).bind(2, context.config_hash).bind(3, context.revision);
  insert.bind(4, context.backend).bind(5, context.device).bind(6, context.kokkos_version).bind(7, context.host);
  insert.bind(8, std::int64_t{context.ranks}).bind(9, context.started.empty() ? now() : context.started);
  insert.step();
  return sqlite3_last_insert_rowid(db_);
}

void ResultsDatabase::end_session(std::int64_t session, const std::string& status) {
  Statement update(db_, "UPDATE sessions SET ended = ?, status = ? WHERE id = ?", path_);
  update.bind(1, now()).bind(2, status).bind(3, session);
  update.step();
}

void ResultsDatabase::mark_interrupted() {
  execute("UPDATE sessions SET status = 'interrupted' WHERE status = 'running'");
}

void ResultsDatabase::add_point(const StoredPoint& point) {
  in_transaction([&] {
    const auto index = static_cast<std::int64_t>(point.point);
    Statement remove(db_, "DELETE FROM points WHERE run = ? AND point = ?", path_);  // its rows go with it
    remove.bind(1, point.run).bind(2, index);
    remove.step();
    Statement insert(db_, "INSERT INTO points VALUES (?, ?, ?, ?, ?, ?, ?)", path_);
    insert.bind(1, point.run).bind(2, index).bind(3, point.session).bind(4, std::int64_t{point.rank});
    insert.bind(5, point.parameters).bind(6, point.started).bind(7, point.ended);
    insert.step();
    Statement rows(db_, "INSERT INTO rows VALUES (?, ?, ?, ?, ?)", path_);
    for (std::size_t r = 0; r < point.rows.size(); ++r) {
      rows.bind(1, point.run).bind(2, index).bind(3, static_cast<std::int64_t>(r));
      rows.bind(4, cells_json(point.rows[r])).bind_blob(5, encode_rows({point.rows[r]}));
      rows.step();
      rows.reset();
    }
  });
}

void ResultsDatabase::clear_run(const std::string& run) {
  for (const char* table : {"points", "run_keys"}) {
    Statement remove(db_, std::string("DELETE FROM ") + table + " WHERE run = ?", path_);
    remove.bind(1, run);
    remove.step();
  }
}

void ResultsDatabase::describe_columns(const std::vector<FieldRule>& columns) {
  in_transaction([&] {
    Statement insert(db_, "INSERT OR REPLACE INTO columns VALUES (?, ?, ?, ?)", path_);
    for (const FieldRule& column : columns) {
      insert.bind(1, column.name)
          .bind(2, std::string(to_string(column.kind)))
          .bind(3, column.unit)
          .bind(4, column.meaning);
      insert.step();
      insert.reset();
    }
  });
}

void ResultsDatabase::set_run_keys(const std::string& run,
                                   const std::vector<std::pair<std::string, std::string>>& keys) {
  in_transaction([&] {
    Statement remove(db_, "DELETE FROM run_keys WHERE run = ?", path_);
    remove.bind(1, run);
    remove.step();
    Statement insert(db_, "INSERT INTO run_keys VALUES (?, ?, ?)", path_);
    for (const auto& [key, value] : keys) {
      insert.bind(1, run).bind(2, key).bind(3, value);
      insert.step();
      insert.reset();
    }
  });
}

std::vector<std::pair<std::string, std::string>> ResultsDatabase::run_keys(const std::string& run) const {
  Statement query(db_, "SELECT key, value FROM run_keys WHERE run = ? ORDER BY rowid", path_);
  query.bind(1, run);
  std::vector<std::pair<std::string, std::string>> keys;
  while (query.step()) keys.emplace_back(query.text(0), query.text(1));
  return keys;
}

std::vector<StoredSession> ResultsDatabase::sessions() const {
  Statement query(db_,
                  "SELECT id, config, config_hash, revision, backend, device, kokkos, host, ranks, started, "
                  "ifnull(ended, ''), status FROM sessions ORDER BY id",
                  path_);
  std::vector<StoredSession> sessions;
  while (query.step()) {
    StoredSession session;
    session.id = query.integer(0);
    SessionContext& context = session.context;
    context.config_path = query.text(1);
    context.config_hash = query.text(2);
    context.revision = query.text(3);
    context.backend = query.text(4);
    context.device = query.text(5);
    context.kokkos_version = query.text(6);
    context.host = query.text(7);
    context.ranks = static_cast<int>(query.integer(8));
    context.started = query.text(9);
    session.ended = query.text(10);
    session.status = query.text(11);
    sessions.push_back(std::move(session));
  }
  return sessions;
}

std::vector<StoredPoint> ResultsDatabase::select(const std::string& where, const std::string& run) const {
  Statement query(
      db_, "SELECT run, point, session, rank, parameters, started, ended FROM points " + where + " ORDER BY run, point",
      path_);
  if (!run.empty()) query.bind(1, run);
  std::vector<StoredPoint> points;
  while (query.step()) {
    StoredPoint point;
    point.run = query.text(0);
    point.point = static_cast<std::size_t>(query.integer(1));
    point.session = query.integer(2);
    point.rank = static_cast<int>(query.integer(3));
    point.parameters = query.text(4);
    point.started = query.text(5);
    point.ended = query.text(6);
    points.push_back(std::move(point));
  }
  for (StoredPoint& point : points) {
    Statement rows(db_, "SELECT encoded FROM rows WHERE run = ? AND point = ? ORDER BY row", path_);
    rows.bind(1, point.run).bind(2, static_cast<std::int64_t>(point.point));
    while (rows.step()) {
      for (Row& row : decode_rows(rows.text(0))) point.rows.push_back(std::move(row));
    }
  }
  return points;
}

std::vector<StoredPoint> ResultsDatabase::points(const std::string& run) const { return select("WHERE run = ?", run); }

std::vector<StoredPoint> ResultsDatabase::all_points() const { return select("", ""); }

std::string ResultsDatabase::now() {
  const auto time = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  char with_millis[40];
  std::snprintf(with_millis, sizeof with_millis, "%s.%03dZ", text, static_cast<int>(millis));
  return with_millis;
}

std::string content_hash(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a, 64 bits
  for (const unsigned char byte : text) {
    hash ^= byte;
    hash *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

}  // namespace kollective::driver
