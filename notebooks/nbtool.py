#!/usr/bin/python3
"""Notebook tool for fsil's Java notebooks (run with Debian's /usr/bin/python3, which has nbformat).

  nbtool.py check NB.ipynb...         fail on error outputs, unexecuted cells, missing table/plot outputs
  nbtool.py check --committed NB...   the same, for the copies committed to the repository: every plot is a static
                                      image, no notebook carries plotly.js, and together they stay under 5 MB
  nbtool.py clean NB.ipynb...         drop volatile metadata (execution timestamps) so regenerated files diff cleanly
  nbtool.py freeze NB.ipynb OUT.ipynb replace every interactive plot by a PNG image of it (drawn by headless Chromium
                                      with the plotly.js the notebook carries) and drop plotly.js: the light copy that
                                      is committed (run-notebooks.sh does this when it regenerates)
  nbtool.py to-text NB.ipynb [OUT]    the cells as text (see below), outputs dropped
  nbtool.py from-text TXT OUT.ipynb   a notebook (no outputs, kernel fsil-java) from that text

Text form: a line '// %% [markdown]' starts a markdown cell and '// %%' a Java code cell; everything up to the
next marker is the cell's source. Lines before the first marker are ignored.

What check requires of every notebook:
  - every code cell ran (execution_count set) and no output is an error;
  - no stream output on stderr that reports an exception;
  - a code cell that calls Show.table(...) has at least that many HTML table outputs, one that calls
    Show.plot(...) at least that many plot outputs (interactive or static); the notebook has at least one table
    and one plot;
  - interactive plots: the first carries plotly.js (the others rely on it), each calls Plotly.newPlot;
  - static plots (frozen): a PNG image with the plot's text form.
With --committed, also: no interactive plot and no copy of plotly.js, and all the notebooks given together stay
under 5 MB (COMMITTED_LIMIT).
"""
import base64
import html as htmllib
import json
import os
import re
import subprocess
import sys
import tempfile

import nbformat

KERNEL = {"name": "fsil-java", "display_name": "Java (fsil)", "language": "java"}
LANGUAGE = {"name": "java", "file_extension": ".jshell", "mimetype": "text/x-java-source"}
LOADER_MARK = "fsil-plotly-loader"
PLOT_MARK = 'class="fsil-plot"'
TABLE_MARK = 'class="fsil-table"'
EXCEPTION = re.compile(r"(Exception|Error)(:|\s+in thread)|^\s+at [\w.$]+\(", re.M)
LOADER = re.compile(r'<script class="fsil-plotly-loader">.*?</script>\s*', re.S)
PLOT_DIV = '<div id="fsil_plot_'
# Output metadata of a plot frozen into an image (see freeze).
STATIC = {"plot": "static"}
COMMITTED_LIMIT = 5 * 1000 * 1000
CHROMIUMS = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")


def code_without_comments(src):
    src = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
    src = re.sub(r'"(\\.|[^"\\])*"', '""', src)
    return re.sub(r"//[^\n]*", "", src)


def html_of(output):
    data = output.get("data", {})
    html = data.get("text/html", "")
    return "".join(html) if isinstance(html, list) else html


def is_static_plot(output):
    return output.get("metadata", {}).get("fsil") == STATIC and "image/png" in output.get("data", {})


def check(path, committed=False):
    nb = nbformat.read(path, as_version=4)
    problems = []
    tables = plots = 0
    first_plot = True
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        where = "%s cell %d" % (path, i)
        if cell.get("execution_count") is None:
            problems.append("%s was not executed" % where)
        src = code_without_comments(cell.source)
        want_tables = len(re.findall(r"\bShow\s*\.\s*table\s*\(", src))
        want_plots = len(re.findall(r"\bShow\s*\.\s*plot\s*\(", src))
        got_tables = got_plots = 0
        for out in cell.get("outputs", []):
            kind = out.get("output_type")
            if kind == "error":
                problems.append("%s has an error output: %s: %s" % (where, out.get("ename"), out.get("evalue")))
            elif kind == "stream" and out.get("name") == "stderr" and EXCEPTION.search(out.get("text", "")):
                problems.append("%s reports an exception on stderr: %s" % (where, out["text"][:300]))
            elif kind in ("display_data", "execute_result"):
                html = html_of(out)
                if kind == "display_data" and "text/plain" not in out.get("data", {}):
                    problems.append("%s has an output without text/plain" % where)
                if TABLE_MARK in html and "<td" in html:
                    got_tables += 1
                if PLOT_MARK in html:
                    got_plots += 1
                    if committed:
                        problems.append("%s has an interactive plot: committed copies carry static plots "
                                        "(regenerate with notebooks/run-notebooks.sh)" % where)
                    if "Plotly.newPlot" not in html:
                        problems.append("%s has a plot output that never calls Plotly.newPlot" % where)
                    if first_plot and LOADER_MARK not in html:
                        problems.append("%s: the first plot output does not carry plotly.js" % where)
                    first_plot = False
                elif is_static_plot(out):
                    got_plots += 1
                    if not out["data"].get("text/plain", "").startswith("[plot]"):
                        problems.append("%s has a static plot without its text form" % where)
                if committed and LOADER_MARK in html:
                    problems.append("%s carries plotly.js: committed copies must not" % where)
        if got_tables < want_tables:
            problems.append("%s calls Show.table %d time(s) but has %d table output(s)" % (where, want_tables, got_tables))
        if got_plots < want_plots:
            problems.append("%s calls Show.plot %d time(s) but has %d plot output(s)" % (where, want_plots, got_plots))
        tables += got_tables
        plots += got_plots
    if tables == 0:
        problems.append("%s has no table output" % path)
    if plots == 0:
        problems.append("%s has no plot output" % path)
    return problems, tables, plots


def chromium():
    for c in (os.environ.get("FSIL_CHROMIUM"),) + CHROMIUMS:
        if c and os.access(c, os.X_OK):
            return c
    return None


# Draws every plot of the page, then writes {id: PNG data URL} into <pre id="fsil-freeze-out">.
FREEZE_SCRIPT = """<pre id="fsil-freeze-out"></pre>
<script>
window.addEventListener('load', function () {
  var out = document.getElementById('fsil-freeze-out');
  var divs = Array.prototype.slice.call(document.querySelectorAll('div.fsil-plot'));
  Promise.all(divs.map(function (d) {
    if (!d._fullLayout) { return Promise.resolve('error: not drawn: ' + d.textContent); }
    var w = d._fullLayout.width, h = d._fullLayout.height;
    return Plotly.toImage(d, {format: 'png', width: w, height: h, scale: 1}).then(function (url) {
      return {url: url, width: w, height: h};
    }, function (e) { return 'error: ' + e; });
  })).then(function (images) {
    var r = {};
    divs.forEach(function (d, i) { r[d.id] = images[i]; });
    out.textContent = JSON.stringify(r);
  });
});
window.addEventListener('error', function (e) {
  document.getElementById('fsil-freeze-out').textContent = JSON.stringify({'error': String(e.message)});
});
</script>"""


def freeze(path, out_path, browser=None):
    """Writes a copy of the notebook whose interactive plots are PNG images; returns the number of plots."""
    nb = nbformat.read(path, as_version=4)
    plots = []  # (output, div id, plot html)
    loader = None
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            html = html_of(out)
            if PLOT_MARK not in html:
                continue
            m = LOADER.search(html)
            if m and loader is None:
                loader = m.group(0)
            plot = html[html.index(PLOT_DIV):]
            div = re.match(r'<div id="([^"]+)"', plot).group(1)
            plots.append((out, div, plot))
    if not plots:
        nbformat.write(nb, out_path)
        return 0
    if loader is None:
        raise SystemExit("freeze: %s has interactive plots but no copy of plotly.js (re-execute it)" % path)
    browser = browser or chromium()
    if browser is None:
        raise SystemExit("freeze: needs Chromium to draw the plots (apt-get install chromium, or FSIL_CHROMIUM)")
    with tempfile.TemporaryDirectory(prefix="fsil-freeze-") as tmp:
        page = os.path.join(tmp, "plots.html")
        with open(page, "w", encoding="utf-8") as f:
            f.write('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>\n' + loader)
            for _, _, plot in plots:
                f.write(plot + "\n")
            f.write(FREEZE_SCRIPT + "</body></html>")
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
               "--hide-scrollbars", "--user-data-dir=" + os.path.join(tmp, "profile"),
               "--virtual-time-budget=30000", "--dump-dom", "file://" + page]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        m = re.search(r'<pre id="fsil-freeze-out">(.*?)</pre>', done.stdout, re.S)
        if not m or not m.group(1).strip():
            raise SystemExit("freeze: Chromium drew nothing for %s (exit %d): %s"
                             % (path, done.returncode, done.stderr[-2000:]))
        images = json.loads(htmllib.unescape(m.group(1)))
    if "error" in images:
        raise SystemExit("freeze: a script error while drawing the plots of %s: %s" % (path, images["error"]))
    for out, div, _ in plots:
        img = images.get(div)
        if not isinstance(img, dict) or not img.get("url", "").startswith("data:image/png;base64,"):
            raise SystemExit("freeze: plot %s of %s was not drawn: %s" % (div, path, img))
        png = img["url"][len("data:image/png;base64,"):]
        base64.b64decode(png, validate=True)
        text = out["data"].get("text/plain", "")
        if isinstance(text, list):
            text = "".join(text)
        out["data"] = {"image/png": png,
                       "text/plain": text.replace("(an interactive Plotly figure in Jupyter)",
                                                  "(a static image of the interactive Plotly figure; "
                                                  "re-run the cell for the interactive one)")}
        out["metadata"] = {"image/png": {"width": img["width"], "height": img["height"]}, "fsil": dict(STATIC)}
    nbformat.validate(nb)
    nbformat.write(nb, out_path)
    return len(plots)


def clean(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        cell.metadata.pop("collapsed", None)
        cell.metadata.pop("scrolled", None)
    nb.metadata["kernelspec"] = dict(KERNEL)
    lang = dict(nb.metadata.get("language_info", {}))
    lang.pop("version", None)  # the JDK build: not a property of the notebook
    lang.update(LANGUAGE)
    nb.metadata["language_info"] = lang
    nbformat.validate(nb)
    nbformat.write(nb, path)


def to_text(path):
    nb = nbformat.read(path, as_version=4)
    parts = []
    for cell in nb.cells:
        parts.append("// %% [markdown]" if cell.cell_type == "markdown" else "// %%")
        parts.append(cell.source.rstrip("\n"))
        parts.append("")
    return "\n".join(parts)


def from_text(text):
    cells = []
    kind, lines = None, []

    def flush():
        if kind is not None:
            src = "\n".join(lines).strip("\n")
            cells.append(nbformat.v4.new_markdown_cell(src) if kind == "markdown" else nbformat.v4.new_code_cell(src))

    for line in text.splitlines():
        stripped = line.strip()
        if stripped == "// %% [markdown]" or stripped == "// %%":
            flush()
            kind, lines = ("markdown" if "markdown" in stripped else "code"), []
        else:
            lines.append(line)
    flush()
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = dict(KERNEL)
    nb.metadata["language_info"] = dict(LANGUAGE)
    return nb


def main(argv):
    if len(argv) < 2 or argv[0] not in ("check", "clean", "freeze", "to-text", "from-text"):
        print(__doc__, file=sys.stderr)
        return 2
    cmd, args = argv[0], argv[1:]
    if cmd == "check":
        committed = "--committed" in args
        paths = [a for a in args if a != "--committed"]
        failed = False
        total = 0
        for path in paths:
            problems, tables, plots = check(path, committed)
            size = os.path.getsize(path)
            total += size
            for p in problems:
                print("FAIL " + p)
            failed |= bool(problems)
            if not problems:
                print("ok   %s: %d table(s), %d plot(s), no errors, %.2f MB" % (path, tables, plots, size / 1e6))
        if committed:
            if total >= COMMITTED_LIMIT:
                print("FAIL the committed notebooks take %.2f MB together, the limit is %.1f MB"
                      % (total / 1e6, COMMITTED_LIMIT / 1e6))
                failed = True
            else:
                print("ok   %d committed notebook(s), %.2f MB together (limit %.1f MB)"
                      % (len(paths), total / 1e6, COMMITTED_LIMIT / 1e6))
        return 1 if failed else 0
    if cmd == "freeze":
        if len(args) != 2:
            print(__doc__, file=sys.stderr)
            return 2
        n = freeze(args[0], args[1])
        print("froze %d plot(s): %s -> %s (%.2f MB)" % (n, args[0], args[1], os.path.getsize(args[1]) / 1e6))
        return 0
    if cmd == "clean":
        for path in args:
            clean(path)
        return 0
    if cmd == "to-text":
        text = to_text(args[0])
        if len(args) > 1:
            with open(args[1], "w", encoding="utf-8") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        return 0
    with open(args[0], encoding="utf-8") as f:
        nb = from_text(f.read())
    nbformat.write(nb, args[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
