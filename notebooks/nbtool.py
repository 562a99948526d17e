#!/usr/bin/python3
"""Notebook tool for fsil's Java notebooks (run with Debian's /usr/bin/python3, which has nbformat).

  nbtool.py check NB.ipynb...         fail on error outputs, unexecuted cells, missing table/plot outputs
  nbtool.py clean NB.ipynb...         drop volatile metadata (execution timestamps) so regenerated files diff cleanly
  nbtool.py to-text NB.ipynb [OUT]    the cells as text (see below), outputs dropped
  nbtool.py from-text TXT OUT.ipynb   a notebook (no outputs, kernel fsil-java) from that text

Text form: a line '// %% [markdown]' starts a markdown cell and '// %%' a Java code cell; everything up to the
next marker is the cell's source. Lines before the first marker are ignored.

What check requires of every notebook:
  - every code cell ran (execution_count set) and no output is an error;
  - no stream output on stderr that reports an exception;
  - a code cell that calls Show.table(...) has at least that many HTML table outputs, one that calls
    Show.plot(...) at least that many plot outputs; the notebook has at least one table and one plot;
  - the first plot output carries plotly.js (the others rely on it), every plot output calls Plotly.newPlot.
"""
import re
import sys

import nbformat

KERNEL = {"name": "fsil-java", "display_name": "Java (fsil)", "language": "java"}
LANGUAGE = {"name": "java", "file_extension": ".jshell", "mimetype": "text/x-java-source"}
LOADER_MARK = "fsil-plotly-loader"
PLOT_MARK = 'class="fsil-plot"'
TABLE_MARK = 'class="fsil-table"'
EXCEPTION = re.compile(r"(Exception|Error)(:|\s+in thread)|^\s+at [\w.$]+\(", re.M)


def code_without_comments(src):
    src = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
    src = re.sub(r'"(\\.|[^"\\])*"', '""', src)
    return re.sub(r"//[^\n]*", "", src)


def html_of(output):
    data = output.get("data", {})
    html = data.get("text/html", "")
    return "".join(html) if isinstance(html, list) else html


def check(path):
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
                    if "Plotly.newPlot" not in html:
                        problems.append("%s has a plot output that never calls Plotly.newPlot" % where)
                    if first_plot and LOADER_MARK not in html:
                        problems.append("%s: the first plot output does not carry plotly.js" % where)
                    first_plot = False
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
    if len(argv) < 2 or argv[0] not in ("check", "clean", "to-text", "from-text"):
        print(__doc__, file=sys.stderr)
        return 2
    cmd, args = argv[0], argv[1:]
    if cmd == "check":
        failed = False
        for path in args:
            problems, tables, plots = check(path)
            for p in problems:
                print("FAIL " + p)
            failed |= bool(problems)
            if not problems:
                print("ok   %s: %d table(s), %d plot(s), no errors" % (path, tables, plots))
        return 1 if failed else 0
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
