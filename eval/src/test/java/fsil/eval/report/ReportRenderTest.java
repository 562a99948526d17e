package fsil.eval.report;

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
        Report.write(dir, all, fsil.eval.testing.TestPlugins.metrics().all());
        String html = Files.readString(dir.resolve(Report.HTML));
        int figures = count(html, "class=\"fig\"");
        assertTrue(figures >= 10, "all figure kinds present: " + figures);
        assertTrue(html.contains("critical-difference diagram"), "gp-classes has two settings: a CD diagram");
        assertTrue(html.contains("T-scaled (ECE") && html.contains("ECE (T-scaled)"), "raw and scaled calibration");
        String dom = render(browser, dir, tmp);
        assertEquals(Integer.toString(figures), check(dom, "data-figures"));
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

    /** Loads the report in headless Chromium; checks no script error and no empty figure; returns the DOM. */
    static String render(Path browser, Path dir, Path tmp) throws Exception {
        return render(browser, dir, Report.HTML, tmp);
    }

    static String render(Path browser, Path dir, String page, Path tmp) throws Exception {
        Path profile = Files.createTempDirectory(tmp, "profile");
        ProcessBuilder pb = new ProcessBuilder(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-quic", "--user-data-dir=" + profile, "--allow-file-access-from-files",
                "--virtual-time-budget=15000", "--dump-dom", dir.resolve(page).toUri().toString());
        pb.redirectError(tmp.resolve("chromium.err").toFile());
        Process p = pb.start();
        byte[] dom = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium finished");
        String out = new String(dom, StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("id=\"fsil-check\"[^>]*>([^<]*)<").matcher(out);
        assertTrue(m.find(), "self-check element present after load; chromium stderr: "
                + tail(tmp.resolve("chromium.err")));
        String tag = out.substring(out.indexOf("id=\"fsil-check\""), m.end());
        assertEquals("0", attr(tag, "data-errors"), "script errors: " + m.group(1));
        assertEquals("0", attr(tag, "data-empty"), "figures that drew nothing");
        return out;
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
