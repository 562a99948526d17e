package fsil.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fsil.eval.run.RunSpec;
import fsil.data.FeatureSet;
import fsil.eval.run.Runner;
import fsil.eval.store.UnitRecord;
import fsil.eval.run.VariantSpec;
import fsil.eval.testing.TestData;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Renders a report with every kind of figure in headless Chromium (Debian package {@code chromium}) and fails on
 * script errors or a figure that drew nothing. Skipped when Chromium is absent, unless FSIL_REQUIRE_BROWSER=1
 * (set by .ci/run, which installs it).
 */
class ReportRenderTest {

    static Path chromium() {
        for (String c : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")) {
            if (Files.isExecutable(Path.of(c))) {
                return Path.of(c);
            }
        }
        return null;
    }

    @Test
    void reportRendersWithoutScriptErrorsOrEmptyPlots(@TempDir Path tmp) throws Exception {
        Path browser = browserOrSkip();
        Runner runner = fsil.eval.run.RunnerTest.runner(TestData.clusters(12, 20, 8, 6, 1.0, 9));
        List<UnitRecord> all = new ArrayList<>();
        all.addAll(runner.run(new RunSpec(VariantSpec.parseList("ncm,knn"), List.of("toy"), "identity", "fewshot",
                Map.of("episodes", List.of("20"), "ways", List.of("4"), "queries", List.of("12")), 1, 0, 1, 2, Map.of(),
                null, "temperature"), tmp.resolve("a")).records());
        all.addAll(runner.run(new RunSpec(VariantSpec.parseList("ncm,knn"), List.of("toy"), "identity", "cil",
                Map.of("steps", List.of("3"), "runs", List.of("2")), 1, 0, 1, 2), tmp.resolve("b")).records());
        all.addAll(runner.run(new RunSpec(VariantSpec.parseList("ncm"), List.of("toy"), "identity", "ncmf",
                Map.of("num-classes", List.of("8")), 1, 0, 1, 2), tmp.resolve("c")).records());
        all.addAll(runner.run(new RunSpec(VariantSpec.parseList("ncm,knn"), List.of("toy"), "identity", "gp-classes",
                Map.of("classes", List.of("4", "8"), "runs", List.of("3")), 1, 0, 1, 2), tmp.resolve("d")).records());
        // Kept under target/ so a developer can open the rendered report.
        Path dir = Path.of("target", "report-render");
        Files.createDirectories(dir);
        Report.write(dir, all, fsil.eval.testing.TestPlugins.metrics().all(), Path.of("target", "test-cache"));
        String html = Files.readString(dir.resolve(Report.HTML));
        int figures = count(html, "class=\"fig\"");
        assertTrue(figures >= 10, "all figure kinds present: " + figures);
        assertTrue(html.contains("critical-difference diagram"), "gp-classes has two settings: a CD diagram");
        assertTrue(html.contains("T-scaled (ECE") && html.contains("ECE (T-scaled)"), "raw and scaled calibration");
        assertEquals(1, count(html, Html.text(Formats.UNITS)), "the units are stated once");
        assertTrue(html.indexOf(Html.text(Formats.UNITS)) < html.indexOf("<table"), "at the top");
        for (String header : List.of("<th>accuracy (%)</th>", "<th>final acc (%)</th>", "<th>ECE (0-1)</th>",
                "<th>MCE (0-1)</th>", "<th>NLL (nats)</th>", "<th>ECE (T-scaled) (0-1)</th>")) {
            assertTrue(html.contains(header), "a header with its unit: " + header);
        }
        String dom = render(browser, dir, tmp);
        assertEquals(Integer.toString(figures), check(dom, "data-figures"));
        screenshot(browser, dir, Report.HTML, dom, tmp);
    }

    /**
     * The figures whose layout was hard to read: a critical-difference diagram with tied ranks and a critical
     * difference longer than the rank axis, and times where one method is 1000 times slower than the others. Every
     * figure is checked in the browser (texts do not overlap, lines stay in their plot area, full width) and in a
     * screenshot (target/report-render/figures.png, to look at).
     */
    @Test
    void tiedRanksAndSlowMethodsStayReadable(@TempDir Path tmp) throws Exception {
        Path browser = browserOrSkip();
        Path dir = Path.of("target", "report-render");
        Files.createDirectories(dir);
        PlotlyAsset.copyTo(dir, Path.of("target", "test-cache"));
        HtmlPage page = new HtmlPage("figures");
        List<String> methods = List.of("ncm", "knn", "soft-kmeans[temperature=20]", "ppca", "lsgp[select=last]",
                "bavardage[preset=glyphs-balanced]");
        page.figure(Figures.cdDiagram("critical-difference diagram, ties", methods,
                new double[]{2.5, 2.5, 2.5, 2.5, 5.5, 5.5}, 3.2, new int[][]{{0, 1, 2, 3}, {0, 1, 2, 3, 4, 5}}));
        page.figure(Figures.cdDiagram("critical-difference diagram, two methods tied", List.of("a", "b"),
                new double[]{1.5, 1.5}, 1.39, new int[][]{{0, 1}}));
        Plot cd = Figures.cdDiagram("critical-difference diagram, apart", methods,
                new double[]{1.2, 2.1, 2.9, 4.0, 4.8, 6.0}, 1.1, new int[][]{{0, 1}, {1, 2}, {3, 4}});
        page.figure(cd);
        JsonNode axis = new ObjectMapper().readTree(cd.json()).at("/layout/xaxis/range");
        assertTrue(axis.get(0).asDouble() < 1 && axis.get(1).asDouble() > 6, "ranks 1..k on the axis: " + axis);
        Plot times = Figures.times("time per task (ms)", List.of("ncm", "knn", "gptree", "not timed"),
                new double[]{0.02, 0.03, 40, 0}, new double[]{0.01, 0.2, 25, Double.NaN});
        assertEquals("log", new ObjectMapper().readTree(times.json()).at("/layout/yaxis/type").asText());
        page.figure(times);
        Files.writeString(dir.resolve("figures.html"), page.finish());
        String dom = render(browser, dir, "figures.html", tmp);
        assertEquals("4", check(dom, "data-figures"));
        screenshot(browser, dir, "figures.html", dom, tmp);
    }

    /**
     * A hostile method label, dataset name and run directory name neither run as script nor break the page: each
     * payload would mark the body if it ran, and the page still draws every figure without a script error.
     */
    @Test
    void hostileNamesAreEscapedWherever(@TempDir Path tmp) throws Exception {
        Path browser = browserOrSkip();
        String label = "x</script><script>document.body.setAttribute('data-pwned','label')</script>'\"&";
        String dataset = "<img src=x onerror=\"document.body.setAttribute('data-pwned','dataset')\">";
        String dirName = "run'><svg onload=document.body.setAttribute('data-pwned','dir')>";
        FeatureSet data = TestData.clusters(12, 20, 8, 6, 1.0, 9);
        Runner runner = new Runner(fsil.eval.testing.TestPlugins.methods(), fsil.eval.testing.TestPlugins.protocols(),
                fsil.eval.testing.TestPlugins.metrics(), (name, backbone, seed, cache) -> data, tmp.resolve("cache"));
        Path dir = tmp.resolve(dirName);
        String markup = "<b>bold</b><a href=\"https://example.org/\">link</a>";
        List<VariantSpec> methods = List.of(new VariantSpec(label, "ncm", Map.of()), VariantSpec.parse("knn"),
                VariantSpec.parse("flaky[fail-mod=2]"), new VariantSpec(markup, "knn", Map.of()));
        runner.run(new RunSpec(methods, List.of(dataset), "identity",
                "cil", Map.of("steps", List.of("3"), "runs", List.of("2")), 1, 0, 1, 2), dir);
        String html = Files.readString(dir.resolve(Report.HTML));
        assertTrue(html.contains("x&lt;/script&gt;"), "the label is shown as text");
        String dom = render(browser, dir, tmp);
        Path target = Files.createDirectories(Path.of("target", "report-render"));
        Files.copy(screenshot(browser, dir, Report.HTML, dom, tmp), target.resolve("hostile.png"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Matcher body = Pattern.compile("<body[^>]*>").matcher(dom);
        assertTrue(body.find());
        assertFalse(body.group().contains("data-pwned"), "a payload ran: " + body.group());
        assertTrue(dom.contains("x&lt;/script&gt;&lt;script&gt;document.body.setAttribute"), "the label is on the page");
        // plotly renders <b> and <a href> in labels: escaped, the markup is shown as text inside the figures
        assertFalse(Pattern.compile("<a[^>]*example\\.org").matcher(dom).find(), "a label became a link");
        assertFalse(Pattern.compile("<tspan[^>]*font-weight:\\s*bold").matcher(dom).find(), "a label became bold");
        Matcher svgLabel = Pattern.compile("<svg[^>]*>(?:(?!</svg>).)*&lt;b&gt;bold&lt;/b&gt;&lt;a href=",
                Pattern.DOTALL).matcher(dom);
        assertTrue(svgLabel.find(), "the markup label is drawn as text in a figure");

        // compare.html of the two methods that did not fail, over two blocks so the CD diagram is drawn
        Path cmp = tmp.resolve("compare'><svg onload=document.body.setAttribute('data-pwned','cmp')>");
        Files.createDirectories(cmp);
        List<UnitRecord> ok = new ArrayList<>();
        for (UnitRecord r : fsil.eval.store.UnitStore.read(dir.resolve(fsil.eval.store.UnitStore.FILE)).rows()) {
            if (!r.methodId().equals("flaky")) {
                ok.add(r);
                ok.add(new UnitRecord(r.method(), r.methodId(), r.dataset() + "<b>2", r.protocol(), r.setting(),
                        r.unit(), r.firstTask(), r.tasks(), r.orderSeed(), r.trainSeed(), r.status(), r.error(),
                        r.seconds(), r.metrics()));
            }
        }
        CompareReport.write(cmp, fsil.eval.compare.Comparison.of(ok, fsil.eval.testing.TestPlugins.metrics().all(),
                null, "knn"), "compare " + label);
        String cmpDom = render(browser, cmp, CompareReport.HTML, tmp);
        Files.copy(screenshot(browser, cmp, CompareReport.HTML, cmpDom, tmp), target.resolve("hostile-compare.png"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Matcher cmpBody = Pattern.compile("<body[^>]*>").matcher(cmpDom);
        assertTrue(cmpBody.find());
        assertFalse(cmpBody.group().contains("data-pwned"), "a payload ran: " + cmpBody.group());
        assertEquals("1", check(cmpDom, "data-figures"), "the CD diagram");
    }

    static Path browserOrSkip() {
        Path browser = chromium();
        if (browser == null) {
            if ("1".equals(System.getenv("FSIL_REQUIRE_BROWSER"))) {
                throw new AssertionError("FSIL_REQUIRE_BROWSER=1 but no Chromium found: apt-get install chromium");
            }
            Assumptions.abort("Chromium not installed (apt-get install chromium); report rendering not checked");
        }
        return browser;
    }

    /** Browser window width (CSS pixels, device scale factor 1) for the DOM and the screenshot alike. */
    static final int WIDTH = 1280;

    /**
     * Measures the laid-out page into the hidden element {@code fsil-probe} once the figures are drawn (3 s of the
     * browser's virtual time after the load event: at 0.5 s a heavily loaded machine twice caught a figure between
     * plotly's first layout and its margin pass, with tick labels still overlapping): each
     * figure's box (data-rects, page coordinates), the page height, figures narrower than their container (they
     * should fill the width), overlapping texts inside a figure (titles, axis titles, tick labels, annotations) and
     * lines drawn outside their plot area.
     */
    static final String PROBE = """
            <div id="fsil-probe" style="display:none"></div>
            <script>
            window.addEventListener('load', function () { setTimeout(function () {
              function hit(a, b) { return a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1
                  && b.top < a.bottom - 1; }
              var rects = [], narrow = [], overlaps = [], off = [];
              document.querySelectorAll('div.fig').forEach(function (f) {
                var r = f.getBoundingClientRect();
                rects.push([r.left + window.scrollX, r.top + window.scrollY, r.width, r.height].map(Math.round).join(','));
                var svg = f.querySelector('svg.main-svg');
                if (r.width < 0.9 * f.parentElement.clientWidth || !svg || svg.getBoundingClientRect().width < 0.9 * r.width) {
                  narrow.push(f.id + ' ' + Math.round(r.width) + 'px');
                }
                var texts = [];
                f.querySelectorAll('text.gtitle, text.xtitle, text.ytitle, text.y2title, g.xtick text, g.ytick text, '
                    + 'g.y2tick text, text.annotation-text').forEach(function (t) {
                  var b = t.getBoundingClientRect();
                  if (b.width > 0 && b.height > 0 && t.textContent.trim() !== '') { texts.push([t, b]); }
                });
                for (var i = 0; i < texts.length; i++) {
                  for (var j = i + 1; j < texts.length; j++) {
                    if (hit(texts[i][1], texts[j][1])) {
                      overlaps.push(f.id + ': "' + texts[i][0].textContent + '" / "' + texts[j][0].textContent + '"');
                    }
                  }
                }
                var areas = [];
                f.querySelectorAll('.draglayer .nsewdrag').forEach(function (d) { areas.push(d.getBoundingClientRect()); });
                f.querySelectorAll('.scatterlayer .js-line').forEach(function (l) {
                  var b = l.getBoundingClientRect();
                  if (b.width === 0 && b.height === 0) { return; }
                  var inside = areas.some(function (a) { return b.left >= a.left - 2 && b.right <= a.right + 2
                      && b.top >= a.top - 2 && b.bottom <= a.bottom + 2; });
                  if (!inside) { off.push(f.id); }
                });
              });
              var p = document.getElementById('fsil-probe');
              p.setAttribute('data-rects', rects.join(';'));
              p.setAttribute('data-height', Math.ceil(document.documentElement.scrollHeight));
              p.setAttribute('data-narrow', narrow.join('; '));
              p.setAttribute('data-overlaps', overlaps.join('; ').replace(/"/g, "'"));
              p.setAttribute('data-offaxis', off.join('; '));
            }, 3000); });
            </script>
            """;

    /**
     * Loads the page in headless Chromium (with {@link #PROBE} added, from a copy next to it); checks no script
     * error, no empty figure, every figure as wide as the page, no overlapping texts and no line outside its plot
     * area; returns the DOM.
     */
    static String render(Path browser, Path dir, Path tmp) throws Exception {
        return render(browser, dir, Report.HTML, tmp);
    }

    static String render(Path browser, Path dir, String page, Path tmp) throws Exception {
        String html = Files.readString(dir.resolve(page));
        int end = html.lastIndexOf("</body>");
        Path probed = dir.resolve(".probe-" + page);
        Files.writeString(probed, html.substring(0, end) + PROBE + html.substring(end));
        String out;
        try {
            out = new String(chromium(browser, tmp, 1000, "--dump-dom", probed), StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(probed);
        }
        Matcher m = Pattern.compile("id=\"fsil-check\"[^>]*>([^<]*)<").matcher(out);
        assertTrue(m.find(), "self-check element present after load; chromium stderr: "
                + tail(tmp.resolve("chromium.err")));
        String tag = out.substring(out.indexOf("id=\"fsil-check\""), m.end());
        assertEquals("0", attr(tag, "data-errors"), "script errors: " + m.group(1));
        assertEquals("0", attr(tag, "data-empty"), "figures that drew nothing");
        assertEquals("", probe(out, "data-narrow"), "figures narrower than the page");
        assertEquals("", probe(out, "data-overlaps"), "overlapping texts in figures");
        assertEquals("", probe(out, "data-offaxis"), "lines drawn outside their plot area");
        return out;
    }

    /**
     * A PNG screenshot of the whole page (the DOM of {@link #render} gives its height and the figures' boxes),
     * written next to the page as {@code <page>.png}: the picture is not blank, and every figure's box holds a
     * drawing (enough non-white pixels, several colours).
     */
    static Path screenshot(Path browser, Path dir, String page, String dom, Path tmp) throws Exception {
        int height = Math.min(16000, Integer.parseInt(probe(dom, "data-height")));
        Path png = dir.resolve(page.replace(".html", "") + ".png").toAbsolutePath();
        Files.deleteIfExists(png);
        chromium(browser, tmp, height, "--screenshot=" + png, dir.resolve(page));
        java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(png.toFile());
        assertTrue(img != null, "a PNG screenshot: " + png);
        assertEquals(WIDTH, img.getWidth(), "screenshot width");
        assertTrue(colours(img, 0, 0, img.getWidth(), img.getHeight()) > 50, "the screenshot is not blank");
        String[] rects = probe(dom, "data-rects").split(";");
        for (int i = 0; i < rects.length; i++) {
            String[] r = rects[i].split(",");
            int x = Integer.parseInt(r[0]);
            int y = Integer.parseInt(r[1]);
            int w = Integer.parseInt(r[2]);
            int h = Integer.parseInt(r[3]);
            if (y + h > img.getHeight()) {
                continue; // beyond the largest screenshot taken
            }
            int painted = 0;
            for (int yy = y; yy < y + h; yy += 2) {
                for (int xx = x; xx < Math.min(x + w, img.getWidth()); xx += 2) {
                    if ((img.getRGB(xx, yy) & 0xffffff) != 0xffffff) {
                        painted++;
                    }
                }
            }
            double share = painted / (w * h / 4.0);
            assertTrue(share > 0.02, "figure " + i + " of " + page + " is (almost) blank in the screenshot: " + share);
            assertTrue(colours(img, x, y, w, h) >= 8, "figure " + i + " of " + page + " has few colours");
        }
        return png;
    }

    private static int colours(java.awt.image.BufferedImage img, int x, int y, int w, int h) {
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int yy = y; yy < Math.min(y + h, img.getHeight()); yy += 3) {
            for (int xx = x; xx < Math.min(x + w, img.getWidth()); xx += 3) {
                seen.add(img.getRGB(xx, yy) & 0xffffff);
            }
        }
        return seen.size();
    }

    /** Runs headless Chromium on a page with the given window height and one action (--dump-dom, --screenshot). */
    private static byte[] chromium(Path browser, Path tmp, int height, String action, Path page) throws Exception {
        Path profile = Files.createTempDirectory(tmp, "profile");
        ProcessBuilder pb = new ProcessBuilder(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-quic", "--user-data-dir=" + profile, "--allow-file-access-from-files",
                "--window-size=" + WIDTH + "," + height, "--force-device-scale-factor=1", "--hide-scrollbars",
                "--virtual-time-budget=15000", action, page.toAbsolutePath().toUri().toString());
        pb.redirectError(tmp.resolve("chromium.err").toFile());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium finished");
        return out;
    }

    private static String probe(String dom, String name) {
        Matcher m = Pattern.compile("id=\"fsil-probe\"[^>]*>").matcher(dom);
        assertTrue(m.find(), "the probe ran");
        return attr(m.group(), name);
    }

    private static String check(String dom, String name) {
        Matcher m = Pattern.compile("id=\"fsil-check\"[^>]*>").matcher(dom);
        return m.find() ? attr(m.group(), name) : "missing";
    }

    private static int count(String s, String sub) {
        int n = 0;
        for (int i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + 1)) {
            n++;
        }
        return n;
    }

    private static String attr(String tag, String name) {
        Matcher m = Pattern.compile(name + "=\"([^\"]*)\"").matcher(tag);
        return m.find() ? m.group(1) : "missing";
    }

    private static String tail(Path f) throws IOException {
        if (!Files.exists(f)) {
            return "";
        }
        String s = Files.readString(f);
        return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
    }
}
