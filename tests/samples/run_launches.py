"""Launch checks (`gshape check SCRIPT -- ARGS`) of samples/hyper/ against
PyTorch itself.

usage: run_launches.py GSHAPE HYPER_DIR

Each sample names launches in its header:
  # launch-ok: ARGS             gshape reports no error; the script runs
  # launch-error: TAG: ARGS     gshape reports an error TAG whose notes name
                                an argument from the command line; the script
                                crashes under /usr/bin/python3
and every sample's command line `--no-such-option` is an argparse error.
Exits 1 when any expectation fails.
"""
import json
import os
import re
import shlex
import subprocess
import sys

PYTHON = "/usr/bin/python3"


def check(gshape, script, args):
    out = subprocess.run([gshape, "check", "--format=json", script, "--"] + args, capture_output=True, text=True)
    return out.returncode, json.loads(out.stdout)


def main():
    gshape, folder = sys.argv[1], sys.argv[2]
    failed = 0
    count = 0
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".py")):
        script = os.path.join(folder, name)
        with open(script) as f:
            header = f.read()
        launches = re.findall(r"^# launch-(ok|error): (?:([a-z0-9_]+): )?(.*)$", header, re.M)
        problems = []
        if not launches:
            problems.append("no launch in the header")
        for kind, tag, words in launches:
            count += 1
            args = shlex.split(words)
            code, doc = check(gshape, script, args)
            errors = [d for d in doc["diagnostics"] if d["severity"] == "error"]
            ran = subprocess.run([PYTHON, script] + args, capture_output=True, text=True, timeout=300)
            if kind == "ok":
                if code != 0 or errors:
                    problems.append("%s: gshape reports %s" % (words, [e["message"] for e in errors]))
                if ran.returncode != 0:
                    problems.append("%s: the script fails under PyTorch: %s" % (words, ran.stderr.strip()[-200:]))
            else:
                hit = [e for e in errors if e.get("tag") == tag]
                if code != 1 or not hit:
                    problems.append("%s: no %s error (got %s)" % (words, tag, [e.get("tag") for e in errors]))
                elif not any("from the command line" in n["message"] for n in hit[0].get("notes", [])):
                    problems.append("%s: the error does not name the argument it comes from" % words)
                if ran.returncode == 0:
                    problems.append("%s: the script runs under PyTorch, yet gshape reports an error" % words)
        code, doc = check(gshape, script, ["--no-such-option"])
        if code != 1 or not any("argparse rejects" in d["message"] for d in doc["diagnostics"]):
            problems.append("an unknown option is not reported")
        failed += bool(problems)
        print("%-24s %s" % (name, "ok" if not problems else "FAILED"))
        for p in problems:
            print("    " + p)
    print("%d launches, %d samples failed" % (count, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
