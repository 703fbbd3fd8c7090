"""One row of the ODP-IP comparison as a JSON line, from both solvers' outputs.

row.py MODEL N SEED ODPIP_RC ODPIP_JSON KOLLECTIVE_RC KOLLECTIVE_JSON CPUS THREADS LOAD1 LIMIT METHOD

ODPIP_RC empty: ODP-IP had not finished when its run was ended from outside (status unfinished);
"killed": killed before its limit (out of memory, say); "notrun": no instance to run it on.
"""
import json, sys
model, n, seed, odpip_rc, odpip_json, k_rc, k_json, cpus, threads, load1, limit, method = sys.argv[1:]
row = {"model": model, "n": int(n), "seed": int(seed)}
def close(a, b):
    if a is None or b is None:
        return None
    scale = max(abs(a), abs(b))
    return abs(a - b) <= 1e-9 * scale if scale > 0 else a == b
o = None
rc = odpip_rc.strip()
if rc in ("", "killed", "notrun"):
    status = {"": "unfinished", "killed": "killed", "notrun": "not run"}[rc]
elif int(rc) in (124, 137):
    status = "timeout"
elif int(rc) != 0:
    status = "error(rc=%s)" % rc
else:
    try:
        with open(odpip_json) as f:
            o = json.loads(f.read().strip().splitlines()[-1])
        status = "ok"
    except Exception as e:  # no or broken JSON
        status = "error(no json)"
k = None
if not k_rc.strip():
    k_status = "unfinished"
elif int(k_rc) == 0:
    try:
        with open(k_json) as f:
            k = json.load(f)["rows"][0]
        k_status = "ok"
    except Exception:
        k_status = "error(no table)"
else:
    k_status = "timeout" if int(k_rc) in (124, 137) else "error(rc=%s)" % k_rc
row["odpip_seconds"] = o["seconds"] if o else None
row["odpip_value"] = o["value"] if o else None
row["odpip_structure_value"] = o["structure_value"] if o else None
row["kollective_method"] = method
row["kollective_solved_by"] = k["method"] if k else None
row["kollective_nodes"] = k.get("nodes") if k else None
row["kollective_ip_seconds"] = k.get("ip_s") if k else None  # IP's time in ip and auto
row["kollective_ip_start_seconds"] = k.get("ip_start_s") if k else None  # of it, before the search
row["kollective_seconds"] = k["solve_s"] if k else None
row["kollective_value"] = k["optimum"] if k else None
row["values_equal"] = close(row["odpip_value"], row["kollective_value"])
row["odpip_status"] = status
row["kollective_status"] = k_status
row["odpip_structure_adds_up"] = close(row["odpip_value"], row["odpip_structure_value"])
row["odpip_partition_ok"] = o["partition_ok"] if o else None
row["odpip_idp_max_size"] = o["idp_max_size"] if o else None
row["odpip_idp_stop_size"] = o["idp_stop_size"] if o else None
row["odpip_ended_by"] = o["ended_by"] if o else None
row["odpip_cpus"] = cpus
row["kollective_threads"] = int(threads) if threads.isdigit() else None  # side_by_side.sh: see the device
row["kollective_device"] = k.get("device") if k else None
row["load1_before"] = float(load1) if load1 != "-" else None
row["timeout_s"] = float(limit)
print(json.dumps(row))
