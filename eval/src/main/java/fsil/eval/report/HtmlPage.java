package fsil.eval.report;

/** Minimal HTML page assembly: headings, paragraphs, tables as markup, Plotly figures; text is escaped. */
final class HtmlPage {
    /**
     * Records script errors and figures that drew nothing into a hidden element, so a headless browser test can
     * check the page (data-errors, data-figures, data-empty).
     */
    static final String SELF_CHECK = "<div id=\"fsil-check\" style=\"display:none\"></div>\n<script>\n"
            + "window.addEventListener('load', function () {\n"
            + "  var figs = document.querySelectorAll('div.fig'); var empty = 0;\n"
            + "  figs.forEach(function (f) { var svg = f.querySelector('svg.main-svg');\n"
            + "    var marks = f.querySelectorAll('.trace, .hm, image, .point, .bars path');\n"
            + "    if (!svg || marks.length === 0) { empty++; } });\n"
            + "  var c = document.getElementById('fsil-check');\n"
            + "  c.setAttribute('data-figures', figs.length); c.setAttribute('data-empty', empty);\n"
            + "  c.setAttribute('data-errors', window.fsilErrors.length);\n"
            + "  c.textContent = window.fsilErrors.join(' | ');\n"
            + "});\n</script>\n";

    private final StringBuilder body = new StringBuilder();
    private final String title;
    private int figures;

    HtmlPage(String title) {
        this.title = title;
    }

    void h1(String s) {
        body.append("<h1>").append(Html.text(s)).append("</h1>\n");
    }

    void h2(String s) {
        body.append("<h2>").append(Html.text(s)).append("</h2>\n");
    }

    void p(String s) {
        body.append("<p>").append(Html.text(s)).append("</p>\n");
    }

    void raw(String html) {
        body.append(html).append('\n');
    }

    void figure(Plot p) {
        body.append(p.html("fig" + (figures++)));
    }

    int nextFigure() {
        return figures++;
    }

    String finish() {
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"UTF-8\"><title>" + Html.text(title)
                + "</title>\n<script>window.fsilErrors = [];window.addEventListener('error', function (e) "
                + "{ window.fsilErrors.push(String(e.message)); });</script>\n<script src=\"" + PlotlyAsset.FILE
                + "\"></script>\n<style>body{font-family:sans-serif;margin:2em}"
                + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;"
                + "text-align:right}th{background:#f0f0f0}td:first-child{text-align:left}"
                + "table.headline td{white-space:nowrap}table.headline td:first-child{white-space:normal}"
                + ".fig{margin:1em 0;width:100%}.units{color:#444}"
                + ".warning{color:#a00;font-weight:bold}</style></head><body>\n" + body + SELF_CHECK
                + "</body></html>\n";
    }
}
