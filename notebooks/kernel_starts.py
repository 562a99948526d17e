#!/usr/bin/python3
"""Starts an installed Jupyter kernel N times in a row, headless, and counts the starts that hang or fail.

  kernel_starts.py N [--kernel fsil-java] [--timeout 30] [--logs DIR] [--code CELL] [--expect TEXT]

Each start does what a notebook front end does: launch the kernel from its kernelspec (jupyter_client's
KernelManager), wait for the kernel_info reply (jupyter_client's wait_for_ready: a kernel_info_request every
second), run one tiny cell and check its output, then ask the kernel to shut down. A start is

  ok      kernel_info answered, the cell printed what was expected, the kernel exited when asked;
  hang    no kernel_info reply within --timeout seconds while the process was alive (what a user sees as a
          kernel stuck at "Connecting..."); the kernel's threads are dumped with jstack into --logs first;
  died    the process exited before answering;
  failed  anything else (the cell failed or timed out, the kernel did not exit when asked).

The kernel's own output (its log on stderr) of every start goes to --logs/start-NNN.log. Prints one line per
start and a summary with the times to kernel_info, to the cell's output and of the whole start. Exit status 0
when every start was ok. Run with Debian's /usr/bin/python3 (jupyter_client), with JUPYTER_PATH set so that the
kernelspec is found (notebooks/kernel-starts.sh does both).
"""
import argparse
import os
import queue
import shutil
import statistics
import subprocess
import sys
import time

from jupyter_client.manager import KernelManager


def jstack(pid, path):
    tool = shutil.which("jstack")
    if tool is None:
        return "no jstack on PATH"
    try:
        out = subprocess.run([tool, "-l", str(pid)], capture_output=True, text=True, timeout=30)
        with open(path, "w", encoding="utf-8") as f:
            f.write(out.stdout + out.stderr)
        return path
    except Exception as e:  # a dump is a diagnostic: never let it end the measurement
        return "jstack failed: %s" % e


def run_cell(kc, code, timeout):
    """Executes code; returns (stdout text, error or None)."""
    msg_id = kc.execute(code, store_history=False)
    deadline = time.monotonic() + timeout
    out, error = [], None
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return "".join(out), "no idle status within %d s" % timeout
        try:
            msg = kc.get_iopub_msg(timeout=left)
        except queue.Empty:
            continue
        if msg.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream" and content.get("name") == "stdout":
            out.append(content.get("text", ""))
        elif kind == "error":
            error = "%s: %s" % (content.get("ename"), content.get("evalue"))
        elif kind == "status" and content.get("execution_state") == "idle":
            return "".join(out), error


def one_start(i, args):
    log_path = os.path.join(args.logs, "start-%03d.log" % i)
    log = open(log_path, "w", encoding="utf-8")
    km = KernelManager(kernel_name=args.kernel)
    r = {"i": i, "ready": None, "cell": None, "total": None, "state": "failed", "why": "", "repaired": 0}
    t0 = time.monotonic()
    kc = None
    try:
        km.start_kernel(stdout=log, stderr=subprocess.STDOUT)
        kc = km.client()
        kc.start_channels()
        try:
            kc.wait_for_ready(timeout=args.timeout)
        except RuntimeError as e:
            if km.is_alive():
                r["state"] = "hang"
                r["why"] = "%s; threads: %s" % (e, jstack(km.provisioner.pid, log_path[:-4] + ".jstack"))
            else:
                r["state"] = "died"
                r["why"] = str(e)
            return r
        r["ready"] = time.monotonic() - t0
        t1 = time.monotonic()
        text, error = run_cell(kc, args.code, args.timeout)
        r["cell"] = time.monotonic() - t1
        if error is not None or args.expect not in text:
            r["why"] = "cell: %s, stdout %r" % (error or "no error", text[-200:])
            return r
        km.shutdown_kernel(now=False)
        r["total"] = time.monotonic() - t0
        r["state"] = "ok"
        return r
    except Exception as e:
        r["why"] = "%s: %s" % (type(e).__name__, e)
        return r
    finally:
        if kc is not None:
            kc.stop_channels()
        if km.has_kernel:
            km.shutdown_kernel(now=True)
        if r["total"] is None:
            r["total"] = time.monotonic() - t0
        log.close()
        with open(log_path, encoding="utf-8", errors="replace") as f:
            r["repaired"] = sum(1 for line in f if line.startswith(REPAIR_MARK))


# What fsil's launcher (fsil.notebook.kernel.RapaioLauncher) prints when it replaces a loop thread that a start-up
# race ended: counted per start, to show how often the race struck.
REPAIR_MARK = "fsil kernel launcher: the "


def summary(values):
    if not values:
        return "-"
    return "median %.2f s, min %.2f, max %.2f" % (statistics.median(values), min(values), max(values))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("n", type=int, help="consecutive starts")
    p.add_argument("--kernel", default="fsil-java", help="kernelspec name (default fsil-java)")
    p.add_argument("--timeout", type=float, default=30, help="seconds to wait for kernel_info and for the cell")
    p.add_argument("--logs", default="kernel-starts-logs", help="folder for the kernel logs and thread dumps")
    p.add_argument("--code", default='System.out.println("fsil-" + (6 * 7));', help="the tiny cell")
    p.add_argument("--expect", default="fsil-42", help="text the cell must print")
    args = p.parse_args()
    os.makedirs(args.logs, exist_ok=True)
    load = os.getloadavg()
    print("kernel-starts: %d starts of kernel '%s', timeout %g s, %d cores, load average %.2f %.2f %.2f, logs in %s"
          % (args.n, args.kernel, args.timeout, os.cpu_count(), load[0], load[1], load[2], args.logs), flush=True)
    results = []
    for i in range(1, args.n + 1):
        r = one_start(i, args)
        results.append(r)
        fmt = lambda v: "-" if v is None else "%.2f s" % v
        print("start %3d  %-6s  kernel_info %-8s  cell %-8s  total %-8s %s%s"
              % (i, r["state"], fmt(r["ready"]), fmt(r["cell"]), fmt(r["total"]),
                 "loop threads replaced by the launcher: %d  " % r["repaired"] if r["repaired"] else "", r["why"]),
              flush=True)
    counts = {s: sum(1 for r in results if r["state"] == s) for s in ("ok", "hang", "died", "failed")}
    ok = [r for r in results if r["state"] == "ok"]
    load = os.getloadavg()
    print("kernel-starts: %d of %d ok, %d hang, %d died, %d failed (load average now %.2f %.2f %.2f)"
          % (counts["ok"], args.n, counts["hang"], counts["died"], counts["failed"], load[0], load[1], load[2]))
    print("  to kernel_info: %s" % summary([r["ready"] for r in ok]))
    print("  cell:           %s" % summary([r["cell"] for r in ok]))
    print("  whole start:    %s" % summary([r["total"] for r in ok]))
    repaired = [r["repaired"] for r in results if r["repaired"]]
    print("  loop threads the launcher replaced after a start-up race: %d, in %d of %d starts"
          % (sum(repaired), len(repaired), args.n))
    return 0 if counts["ok"] == args.n else 1


if __name__ == "__main__":
    sys.exit(main())
