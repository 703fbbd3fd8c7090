"""The rows (JSON lines) as a CSV and a table on stdout: table.py ROWS.jsonl CSV APPEND(0|1)."""
import csv, json, os, sys
rows_path, csv_path, append = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
columns = ["model", "n", "seed", "odpip_seconds", "odpip_value", "odpip_structure_value",
           "kollective_method", "kollective_solved_by", "kollective_nodes", "kollective_seconds",
           "kollective_ip_seconds", "kollective_ip_start_seconds", "kollective_value", "values_equal", "odpip_status", "kollective_status",
           "odpip_structure_adds_up", "odpip_partition_ok", "odpip_idp_max_size", "odpip_idp_stop_size",
           "odpip_ended_by", "odpip_cpus", "kollective_threads", "kollective_device", "load1_before", "timeout_s"]
rows = [json.loads(line) for line in open(rows_path) if line.strip()]
def cell(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)
write_header = not (append and os.path.exists(csv_path) and os.path.getsize(csv_path) > 0)
if not write_header:  # appending: the file's columns must be these
    with open(csv_path, newline="") as f:
        if next(csv.reader(f), None) != columns:
            sys.exit("table.py: %s has other columns than this version writes; append to a new file" % csv_path)
with open(csv_path, "a" if append else "w", newline="") as f:
    w = csv.writer(f)
    if write_header:
        w.writerow(columns)
    for r in rows:
        w.writerow([cell(r.get(c)) for c in columns])
print("\n%-17s %3s  %12s %20s %7s  %-9s %12s %8s %20s  %5s" % (
    "model", "n", "odpip_s", "odpip_value", "idp/stop", "method", "kollective_s", "speedup", "kollective_value", "equal"))
for r in rows:
    def num(v, fmt):
        return fmt % v if isinstance(v, (int, float)) and not isinstance(v, bool) else "-"
    idp = "%s/%s" % (r["odpip_idp_max_size"], r["odpip_idp_stop_size"]) if r["odpip_idp_max_size"] is not None else "-"
    o_s = num(r["odpip_seconds"], "%.3f") if r["odpip_status"] == "ok" else r["odpip_status"]
    k_s = num(r["kollective_seconds"], "%.3f") if r["kollective_status"] == "ok" else r["kollective_status"]
    speedup = "-"
    if r["kollective_status"] == "ok" and r["kollective_seconds"]:
        if r["odpip_status"] == "ok":
            speedup = "%.1fx" % (r["odpip_seconds"] / r["kollective_seconds"])
        elif r["odpip_status"] == "timeout":  # ODP-IP ran at least the limit
            speedup = ">%.0fx" % (r["timeout_s"] / r["kollective_seconds"])
    eq = "-" if r["values_equal"] is None else ("yes" if r["values_equal"] else "NO")
    if r["odpip_structure_adds_up"] is False or r["odpip_partition_ok"] is False:
        eq += " (ODP-IP structure != value)"
    print("%-17s %3d  %12s %20s %7s  %-9s %12s %8s %20s  %5s" % (
        r["model"], r["n"], o_s, num(r["odpip_value"], "%.10g"), idp,
        "%s:%s" % (r["kollective_method"], r["kollective_solved_by"] or "-"), k_s, speedup,
        num(r["kollective_value"], "%.10g"), eq))
print("\nCSV: %s" % csv_path)
