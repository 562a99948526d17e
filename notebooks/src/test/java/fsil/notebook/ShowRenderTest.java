package fsil.notebook;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTML {@link Show} produces draws in a real browser with no network: headless Chromium (Debian package
 * {@code chromium}, network features off) renders a table and two plots, with an AMD loader on the page as in
 * classic Jupyter Notebook, and a page whose plot lacks plotly.js shows the explanation. Skipped when Chromium
 * is absent, unless FSIL_REQUIRE_BROWSER=1 (set by .ci/run, which installs it).
 */
class ShowRenderTest {
    /** After load: how many plots drew an SVG with traces, script errors, and whether plotly went to AMD. */
    private static final String CHECK = "<div id=\"check\"></div><script>\n"
            + "window.addEventListener('load', function () {\n"
            + "  var plots = document.querySelectorAll('div.fsil-plot'); var drawn = 0;\n"
            + "  plots.forEach(function (p) { if (p.querySelector('svg.main-svg') && p.querySelectorAll('.trace').length) drawn++; });\n"
            + "  var c = document.getElementById('check');\n"
            + "  c.setAttribute('data-plots', plots.length); c.setAttribute('data-drawn', drawn);\n"
            + "  c.setAttribute('data-errors', window.errors.length); c.setAttribute('data-amd', window.amdCalls);\n"
            + "  c.setAttribute('data-tables', document.querySelectorAll('table.fsil-table td').length);\n"
            + "  c.textContent = window.errors.join(' | ') + ' text=' + (plots.length ? plots[0].textContent : '');\n"
            + "});</script>";
    private static final String HEAD = "<!DOCTYPE html><html><head><meta charset=\"UTF-8\"><script>\n"
            + "window.errors = []; window.addEventListener('error', function (e) { window.errors.push(String(e.message)); });\n"
            + "window.amdCalls = 0; window.define = function () { window.amdCalls++; }; window.define.amd = {};\n"
            + "</script></head><body>\n";

    private final ShowTest.Recorder rec = new ShowTest.Recorder();

    @AfterEach
    void reset() {
        Show.use(null);
    }

    static Path chromium() {
        for (String c : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")) {
            if (Files.isExecutable(Path.of(c))) {
                return Path.of(c);
            }
        }
        if ("1".equals(System.getenv("FSIL_REQUIRE_BROWSER"))) {
            throw new AssertionError("FSIL_REQUIRE_BROWSER=1 but no Chromium found: apt-get install chromium");
        }
        Assumptions.abort("Chromium not installed (apt-get install chromium); rendering not checked");
        return null;
    }

    private static String render(Path browser, Path page, Path tmp) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-quic", "--user-data-dir=" + tmp.resolve("profile-" + page.getFileName()),
                "--virtual-time-budget=5000", "--dump-dom", page.toUri().toString());
        pb.redirectError(tmp.resolve("chromium.err").toFile());
        Process p = pb.start();
        byte[] dom = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium finished");
        String out = new String(dom, StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("<div id=\"check\"[^>]*>").matcher(out);
        assertTrue(m.find(), "check element after load; chromium stderr: " + Files.readString(tmp.resolve("chromium.err")));
        return out.substring(m.start());
    }

    private static String attr(String tag, String name) {
        Matcher m = Pattern.compile(name + "=\"([^\"]*)\"").matcher(tag);
        return m.find() ? m.group(1) : "missing";
    }

    @Test
    void tablesAndPlotsDrawOfflineNextToAnAmdLoader(@TempDir Path tmp) throws Exception {
        Path browser = chromium();
        Show.use(rec);
        Show.table(ShowTest.table(4));
        Show.plot(ShowTest.figure("first"));
        Show.plot(ShowTest.figure("second"));
        StringBuilder page = new StringBuilder(HEAD);
        rec.shown.forEach(b -> page.append(b.get(Show.HTML)).append('\n'));
        Path file = tmp.resolve("outputs.html");
        Files.writeString(file, page + CHECK + "</body></html>");
        String check = render(browser, file, tmp);
        assertEquals("0", attr(check, "data-errors"), check);
        assertEquals("2", attr(check, "data-plots"), check);
        assertEquals("2", attr(check, "data-drawn"), "both plots drew: " + check);
        assertEquals("0", attr(check, "data-amd"), "plotly.js did not register with the AMD loader");
        assertEquals("12", attr(check, "data-tables"), "4 rows x 3 cells");
    }

    @Test
    void aPlotWithoutPlotlySaysWhy(@TempDir Path tmp) throws Exception {
        Path browser = chromium();
        Show.use(rec);
        Show.plot(ShowTest.figure("first"));
        Show.plot(ShowTest.figure("second"));
        Path file = tmp.resolve("second-only.html");
        Files.writeString(file, HEAD + rec.shown.get(1).get(Show.HTML) + CHECK + "</body></html>");
        String check = render(browser, file, tmp);
        assertEquals("0", attr(check, "data-errors"), check);
        assertEquals("0", attr(check, "data-drawn"));
        assertTrue(check.contains("This plot needs plotly.js"), check);
    }
}
