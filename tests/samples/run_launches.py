"""Launch checks (`gshape check SCRIPT -- ARGS`) of samples/hyper/ against
PyTorch itself.

usage: run_launches.py GSHAPE HYPER_DIR

Each sample names launches in its header:
  # launch-ok: ARGS             gshape reports no error; the script runs
  # launch-error: TAG: ARGS     gshape reports an error TAG whose notes name
                                the argument (or config file entry) it comes
                                from; the script crashes under /usr/bin/python3
Both run from the sample's folder (config files are named relative to it).
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


def check(gshape, folder, name, args):
    # from the sample's folder, as the script runs: config files are named relative to it
    out = subprocess.run([os.path.abspath(gshape), "check", "--format=json", name, "--"] + args, capture_output=True,
                         text=True, cwd=folder)
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
            code, doc = check(gshape, folder, name, args)
            errors = [d for d in doc["diagnostics"] if d["severity"] == "error"]
            ran = subprocess.run([PYTHON, name] + args, capture_output=True, text=True, timeout=300, cwd=folder)
            if kind == "ok":
                if code != 0 or errors:
                    problems.append("%s: gshape reports %s" % (words, [e["message"] for e in errors]))
                if ran.returncode != 0:
                    problems.append("%s: the script fails under PyTorch: %s" % (words, ran.stderr.strip()[-200:]))
            else:
                hit = [e for e in errors if e.get("tag") == tag]
                if code != 1 or not hit:
                    problems.append("%s: no %s error (got %s)" % (words, tag, [e.get("tag") for e in errors]))
                elif not any(n["message"].startswith("from ") for n in hit[0].get("notes", [])):
                    problems.append("%s: the error does not name the argument it comes from" % words)
                if ran.returncode == 0:
                    problems.append("%s: the script runs under PyTorch, yet gshape reports an error" % words)
        code, doc = check(gshape, folder, name, ["--no-such-option"])
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
