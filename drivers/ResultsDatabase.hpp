#ifndef KOLLECTIVE_DRIVERS_RESULTS_DATABASE_HPP
#define KOLLECTIVE_DRIVERS_RESULTS_DATABASE_HPP

/// \file ResultsDatabase.hpp
/// The output folder's results database: every point's rows committed the moment the point is
/// solved, with the context of the session that solved it, so that a run stopped by a scheduler
/// or a crash keeps every finished point. SQLite (the distribution's library) in WAL mode, one
/// writer per file: rank 0 writes `results.sqlite`; every other rank of an MPI run writes its
/// own points to `results.rank<R>.sqlite` until rank 0 has them too. Each point is one
/// transaction, so a crash at any instant leaves a database that opens and holds every point
/// committed before it.
///
/// Tables (any SQLite reader, e.g. Python's sqlite3; the cells are JSON, see json_extract):
///  - sessions: one `kollective run` each: config path and content hash, revision, backend,
///    device, Kokkos version, host, ranks, start and end (ISO 8601, UTC), status (running,
///    completed, failed, stopped, refused, or interrupted: its process ended without a word).
///  - points: (run, point) once each: the session and rank that solved it, its parameters (JSON
///    object of the point's context cells), start and end.
///  - run_keys: each run's config entry, a row per scalar (key path, value), as the last fresh
///    campaign over the folder gave it: what `--resume` compares the config with.
///  - rows: a point's result rows in order, as a JSON object of typed cells (`cells`) and as
///    the driver's exact encoding (`encoded`, for tables identical to the first ones: what
///    `--resume` and `compare` read).
///  - columns: each column the rows may hold: its kind (answer, timing, counter, context,
///    outcome), unit and meaning, as the writing kollective declared it.
///  - kollective: `schema_version`.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "kollective/core/ResultFields.hpp"
#include "kollective/core/Tables.hpp"

struct sqlite3;

namespace kollective::driver {

/// What a session records of itself.
struct SessionContext {
  std::string config_path, config_hash;
  std::string revision, backend, device, kokkos_version, host;
  int ranks = 1;
  std::string started;  ///< ISO 8601, UTC (ResultsDatabase::now())
};

/// A session as stored.
struct StoredSession {
  std::int64_t id = 0;
  SessionContext context;
  std::string ended, status;
};

/// One point as stored.
struct StoredPoint {
  std::string run;
  std::size_t point = 0;
  std::int64_t session = 0;
  int rank = 0;
  std::string parameters;  ///< JSON object
  std::string started, ended;
  std::vector<Row> rows;
};

class ResultsDatabase {
 public:
  /// The database file of `rank` in `folder`.
  static std::string path_in(const std::string& folder, int rank = 0);

  enum class Access { write, read };
  /// Opens (creating, with its tables, for `write`) the database at `path`; fails naming the
  /// file and SQLite's reason (missing, not a database, locked by another writer, read-only, ...).
  explicit ResultsDatabase(const std::string& path, Access access = Access::write);
  ResultsDatabase(const ResultsDatabase&) = delete;
  ResultsDatabase& operator=(const ResultsDatabase&) = delete;
  ~ResultsDatabase();

  /// Records a session's start; returns its id.
  std::int64_t begin_session(const SessionContext& context);
  /// Records its end: "completed", "failed" or "stopped".
  void end_session(std::int64_t session, const std::string& status);
  /// Marks the sessions still "running" as "interrupted" (killed or crashed before their end): for
  /// the one process that holds the folder's lock, no other session is running.
  void mark_interrupted();

  /// Commits one solved point (replacing an earlier row set of the same run and point).
  void add_point(const StoredPoint& point);
  /// Forgets every point of `run` and its recorded keys (a fresh campaign over the same folder).
  void clear_run(const std::string& run);
  /// Records what each column means (kind, unit, meaning), replacing an earlier description.
  void describe_columns(const std::vector<FieldRule>& columns);
  /// Records `run`'s config entry (its scalars by key path), replacing an earlier one.
  void set_run_keys(const std::string& run, const std::vector<std::pair<std::string, std::string>>& keys);
  /// The recorded entry of `run` (empty: none recorded).
  std::vector<std::pair<std::string, std::string>> run_keys(const std::string& run) const;
  /// Every session, oldest first.
  std::vector<StoredSession> sessions() const;

  /// The stored points of `run`, in point order.
  std::vector<StoredPoint> points(const std::string& run) const;
  /// The points of every run (another rank's shard, to merge).
  std::vector<StoredPoint> all_points() const;

  /// Deletes the database at `path` with its WAL files (none there: nothing happens).
  static void remove(const std::string& path);

  /// Current UTC time, ISO 8601 with milliseconds.
  static std::string now();

 private:
  void execute(const std::string& sql) const;
  /// Runs `work` in one write transaction: committed whole, or rolled back when it throws.
  void in_transaction(const std::function<void()>& work);
  std::vector<StoredPoint> select(const std::string& where, const std::string& run) const;
  std::string path_;
  sqlite3* db_ = nullptr;
};

/// A stable 64-bit hash (FNV-1a) of a config's text, as 16 hex digits: the same on every
/// machine and build, so a resumed campaign can tell its config changed.
std::string content_hash(const std::string& text);

}  // namespace kollective::driver

#endif
