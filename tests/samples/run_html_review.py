"""The HTML review in a real browser: headless Chromium renders the page
`gshape report --html` writes for a sample with one static error.

usage: run_html_review.py GSHAPE SAMPLES_DIR [--screenshot OUT.png]

  * the rendered DOM holds as many obligations of each status as the JSON
    review counts, the summary's totals equal the JSON's, and exactly one
    source line is marked refuted: the line of the refuted obligation;
  * tensor expressions carry their inferred shape as a title (the browser's
    hover text) and a data-shape attribute;
  * the browser's computed styles: the refuted line is red, proven
    obligations are hidden until their toggle is checked, refuted and
    deferred ones are shown;
  * with the runtime built, a run's GSHAPE_STATS counters on the page: the
    check of the refuted line ran and failed;
  * a screenshot is taken (of the run's page when there is one): a PNG
    whose pixels include the refuted line's red; --screenshot keeps it
    (docs/review.png is made so).
Exits 77 (ctest: skipped) when Chromium is not installed, 1 when a check fails.
"""
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from html.parser import HTMLParser

SAMPLE = "bug_flatten_in_features.py"  # one refuted obligation (line 27)
FAILURES = []


def check(condition, what):
    if not condition:
        FAILURES.append(what)
        print("FAIL:", what)


def find_chromium():
    for candidate in (os.environ.get("GSHAPE_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def chromium(browser, profile, *args):
    cmd = [browser, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--disable-extensions",
           "--hide-scrollbars", "--user-data-dir=" + profile, *args]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    if r.returncode != 0:
        print(r.stderr[-2000:])
    return r


class Dom(HTMLParser):
    """The elements of a dumped DOM: (tag, attributes) in document order, and
    the text of the summary's total row cells."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def with_class(self, tag, *classes):
        out = []
        for t, a in self.elements:
            have = set((a.get("class") or "").split())
            if t == tag and all(c in have for c in classes):
                out.append(a)
        return out


def parse_dom(text):
    d = Dom()
    d.feed(text)
    return d


def png_pixels(path):
    """Decodes an 8-bit RGB or RGBA PNG (what Chromium writes): (width, height, rows of bytes, channels)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "unexpected PNG format"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows, channels


def count_colour(path, rgb):
    width, height, rows, channels = png_pixels(path)
    n = 0
    for row in rows:
        for x in range(width):
            if tuple(row[x * channels:x * channels + 3]) == rgb:
                n += 1
    return n


# Runs in the page (a copy of it): the computed styles the assertions need,
# written as JSON into <pre id="probe"> for --dump-dom to carry out.
PROBE = """<script>
(function () {
  const out = {};
  const display = (el) => el ? getComputedStyle(el).display : null;
  const refutedRow = document.querySelector('tr.line.refuted');
  out.refuted_row_background = refutedRow ? getComputedStyle(refutedRow.querySelector('td.code')).backgroundColor : null;
  out.refuted_row_height = refutedRow ? refutedRow.getBoundingClientRect().height : 0;
  out.display = {};
  for (const s of ['refuted', 'deferred', 'proven']) out.display[s] = display(document.querySelector('div.ob.' + s + ':not(.hidden)'));
  const shape = document.querySelector('span.t[data-shape]');
  out.shape_width = shape ? shape.getBoundingClientRect().width : 0;
  document.getElementById('show-proven').checked = true;
  out.proven_after_toggle = display(document.querySelector('div.ob.proven'));
  document.getElementById('show-proven').checked = false;
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


def main():
    if len(sys.argv) not in (3, 5) or (len(sys.argv) == 5 and sys.argv[3] != "--screenshot"):
        print(__doc__)
        return 2
    gshape, samples = sys.argv[1], sys.argv[2]
    keep_screenshot = sys.argv[4] if len(sys.argv) == 5 else None
    browser = find_chromium()
    if browser is None:
        print("SKIP: Chromium is not installed (scripts/install-deps.sh installs it; GSHAPE_CHROMIUM names another)")
        return 77
    gshape = os.path.abspath(gshape)
    tmp = tempfile.mkdtemp(prefix="gshape-html-")
    profile = os.path.join(tmp, "profile")
    # gshape runs in the temporary folder on a copy of the sample, so the
    # page names it and the stats file as a user would (no temporary paths)
    shutil.copyfile(os.path.join(samples, SAMPLE), os.path.join(tmp, SAMPLE))
    sample = SAMPLE
    try:
        page = os.path.join(tmp, "review.html")
        r = subprocess.run([gshape, "report", "--format=json", "--html", "review.html", sample], capture_output=True,
                           text=True, cwd=tmp)
        check(r.returncode == 1, "report exits 1 on a sample with an error (got %d: %s)" % (r.returncode, r.stderr))
        review = json.loads(r.stdout)
        summary = review["summary"]
        refuted_lines = sorted({o["line"] for o in review["obligations"] if o["status"] == "refuted"})
        check(summary["refuted"] == 1 and len(refuted_lines) == 1, "the sample has one refuted obligation: %s" % summary)

        # the DOM as Chromium built it
        d = chromium(browser, profile, "--dump-dom", "file://" + page)
        check(d.returncode == 0, "chromium --dump-dom runs")
        dom = parse_dom(d.stdout)
        for status in ("proven", "refuted", "deferred"):
            obs = [a for a in dom.with_class("div", "ob", status) if a.get("data-status") == status]
            check(len(obs) == summary[status], "%d %s obligations on the page, %d in the JSON" % (len(obs), status, summary[status]))
        totals = {a["data-count"]: a for a in dom.with_class("td", "num") if "data-count" in a}
        total_row = re.search(r'<tr class="total">(.*?)</tr>', d.stdout, re.S)
        check(total_row is not None, "the summary has a total row")
        if total_row:
            cells = dict(re.findall(r'data-count="([a-z-]+)">([0-9]+)<', total_row.group(1)))
            for status in ("proven", "refuted", "deferred"):
                check(int(cells.get(status, -1)) == summary[status], "total %s: page %s, JSON %d" % (status, cells.get(status), summary[status]))
        check(len(totals) > 0, "the summary table has counts")
        marked = dom.with_class("tr", "line", "refuted")
        check(len(marked) == 1, "exactly one refuted line highlighted (got %d)" % len(marked))
        if marked:
            check(marked[0].get("id", "").endswith("-L%d" % refuted_lines[0]),
                  "the highlighted line is the refuted obligation's line %d (%s)" % (refuted_lines[0], marked[0].get("id")))
        shapes = [a for a in dom.with_class("span", "t") if a.get("data-shape")]
        check(len(shapes) > 0, "tensor expressions carry their shape")
        check(all(a.get("title") == a.get("data-shape") for a in shapes), "the hover text (title) is the shape")
        check(any(a.get("data-shape") == "[4, 400]" for a in shapes), "torch.flatten(x, 1) shows [4, 400]")

        # computed styles, from a copy of the page with a probe script
        probed = os.path.join(tmp, "probed.html")
        text = open(page, encoding="utf-8").read()
        check("<script" not in text, "the page itself has no script")
        open(probed, "w", encoding="utf-8").write(text.replace("</body>", PROBE + "</body>"))
        p = chromium(browser, profile, "--dump-dom", "file://" + probed)
        m = re.search(r'<pre id="probe">(.*?)</pre>', p.stdout, re.S)
        check(m is not None, "the probe ran in the browser")
        if m:
            probe = json.loads(html.unescape(m.group(1)))
            check(probe["refuted_row_background"] == "rgb(253, 236, 234)", "the refuted line is red: %s" % probe["refuted_row_background"])
            check(probe["refuted_row_height"] > 0, "the refuted line is rendered")
            check(probe["display"]["refuted"] == "block" and probe["display"]["deferred"] == "block",
                  "refuted and deferred obligations are shown: %s" % probe["display"])
            check(probe["display"]["proven"] == "none", "proven obligations are hidden at first: %s" % probe["display"])
            check(probe["proven_after_toggle"] == "block", "the toggle shows them: %s" % probe["proven_after_toggle"])
            check(probe["shape_width"] > 0, "a shape-carrying expression is laid out")

        # a run's counters on the page (needs the runtime)
        stats = os.path.join(tmp, "stats.json")
        env = dict(os.environ, GSHAPE_STATS=stats, GSHAPE_CHECKS="")
        run = subprocess.run([gshape, "run", "--cache-dir", "cache", sample], capture_output=True,
                             text=True, env=env, timeout=600, cwd=tmp)
        shot_page = page  # the screenshot is of the run's page when there is one
        if run.returncode == 2 or not os.path.isfile(stats):
            print("note: no runtime to run the sample (gshape run exited %d); the --stats page is not checked" % run.returncode)
        else:
            check("ShapeCheckError" in run.stderr, "the run stops at the refuted line")
            page2 = os.path.join(tmp, "run.html")
            subprocess.run([gshape, "report", "--stats", "stats.json", "--html", "run.html", sample], capture_output=True,
                           text=True, cwd=tmp)
            d2 = chromium(browser, profile, "--dump-dom", "file://" + page2)
            dom2 = parse_dom(d2.stdout)
            failed = dom2.with_class("tr", "line", "refuted", "failed")
            check(len(failed) == 1, "the refuted line is marked as failed in the run (got %d)" % len(failed))
            obs = [a for a in dom2.with_class("div", "ob", "refuted") if a.get("data-failures")]
            check(len(obs) == 1 and obs[0].get("data-runs") == "1" and obs[0].get("data-failures") == "1",
                  "its check ran once and failed once: %s" % obs)
            shot_page = page2
        # a screenshot, with the refuted line's colour in it
        shot = os.path.join(tmp, "review.png")
        s = chromium(browser, profile, "--window-size=1200,1500", "--screenshot=" + shot, "file://" + shot_page)
        check(s.returncode == 0 and os.path.isfile(shot), "chromium --screenshot writes a PNG")
        if os.path.isfile(shot):
            red = count_colour(shot, (253, 236, 234))
            check(red > 1000, "the screenshot shows the refuted line's red (%d pixels)" % red)
            if keep_screenshot:
                shutil.copyfile(shot, keep_screenshot)
                print("kept", keep_screenshot)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    print("html review in Chromium: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
