package fsil.app.cli;

import fsil.api.FsilException;
import fsil.eval.compare.Comparison;
import fsil.eval.compare.RunSet;
import fsil.eval.report.CompareReport;
import fsil.eval.report.Report;
import fsil.eval.store.RunDirectory;
import fsil.eval.store.UnitRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** Paired statistics and ranks of the methods of one or more runs on identical tasks. */
@Command(name = "compare", sortOptions = false, mixinStandardHelpOptions = true, description = {
        "Compare methods run on identical tasks (same units, same seeds): per pair and per dataset x setting, the "
                + "mean paired difference with its 95%% interval, win/tie/loss counts and the Wilcoxon signed-rank "
                + "p-value, Holm-corrected over all pairs; across blocks, average ranks, the Friedman test "
                + "(Iman-Davenport form) and the Nemenyi critical difference. Differences of accuracies and "
                + "forgetting are printed in percentage points (pp); pairs.csv keeps them as fractions (0.01 = 1 pp). "
                + "Writes pairs.csv, ranks.csv, friedman.txt and compare.html into a new directory (--out).",
        "Example: fsil compare runs/fewshot-a runs/fewshot-b --baseline ncm --metric episode_acc"})
final class CompareCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "RUN_DIR", description = "run directories; a method label found in "
            + "several of them on the same dataset and setting is named <run directory>/<label> (unless --pool)")
    List<Path> runs;
    @Option(names = "--baseline", paramLabel = "LABEL", description = "compare every method with this one "
            + "(default: every pair)")
    String baseline;
    @Option(names = "--metric", paramLabel = "NAME", description = "a per-task metric: episode_acc (episodes; the "
            + "default), final_acc (incremental runs; the default), avg_incremental_acc, forgetting_max, "
            + "forgetting_first, bwt, memory_bytes")
    String metric;
    @Option(names = "--pool", description = "the runs are parts of one experiment (e.g. one spec run with several "
            + "order seeds): a label is the same method in all of them and its tasks of every run are paired together")
    boolean pool;
    @Option(names = "--out", paramLabel = "DIR", description = "a new or empty directory for the tables and "
            + "compare.html (it is created; default runs/compare-<time>); nothing of yours, and no run directory, is "
            + "written into")
    Path out;
    @Option(names = "--cache", paramLabel = "DIR", description = "cache directory, where the checked copy of plotly.js"
            + " is kept (default $FSIL_CACHE or ~/.cache/fsil)")
    Path cache;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Path dir = out != null ? out : Paths.get("runs", "compare-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        RunDirectory.requireNewOrEmpty(dir, "a comparison"); // before any work; again just before writing
        List<UnitRecord> rows = RunSet.load(runs, pool);
        Comparison c = Comparison.of(rows, Cli.plugins().metrics().all(), metric, baseline);
        PrintWriter o = spec.commandLine().getOut();
        o.print(text(c));
        o.flush();
        write(dir, c, "fsil compare: " + String.join(", ", runs.stream().map(Path::toString).toList()),
                cache != null ? cache : fsil.data.Datasets.defaultCacheDir());
        o.println("wrote " + dir.resolve(CompareReport.PAIRS) + ", " + CompareReport.RANKS + ", "
                + CompareReport.FRIEDMAN + " and " + CompareReport.HTML);
        o.flush();
        return 0;
    }

    /**
     * Writes the comparison into {@code dir}, new or empty as {@code fsil run} requires of its directory; when a
     * write fails, the files written so far (and the directory, when it was created here) are removed again.
     */
    static void write(Path dir, Comparison c, String title, Path cacheDir) {
        RunDirectory.requireNewOrEmpty(dir, "a comparison");
        boolean created = !Files.exists(dir);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new FsilException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        try {
            CompareReport.write(dir, c, title, cacheDir);
        } catch (RuntimeException e) {
            for (String name : List.of(CompareReport.PAIRS, CompareReport.RANKS, CompareReport.FRIEDMAN,
                    CompareReport.HTML, Report.PLOTLY)) {
                try {
                    Files.deleteIfExists(dir.resolve(name));
                } catch (IOException ignored) {
                    // the error being reported says what went wrong
                }
            }
            if (created) {
                try {
                    Files.deleteIfExists(dir);
                } catch (IOException ignored) {
                    // not empty: something else was written there meanwhile, which is not ours to remove
                }
            }
            throw e;
        }
    }

    /**
     * The comparison as terminal text: one line per pair, then the Friedman line. Differences of fractions
     * (accuracies, forgetting) are shown in percentage points, named in the header and on every line; pairs.csv
     * keeps the fractions.
     */
    static String text(Comparison c) {
        boolean percent = CompareReport.percent(c.metric());
        double scale = percent ? 100 : 1;
        String unit = percent ? " pp" : "";
        StringBuilder sb = new StringBuilder();
        sb.append("paired differences in ").append(c.metric()).append(", method - baseline, ")
                .append(percent ? "in percentage points (pp; pairs.csv holds fractions: 0.01 = 1 pp)"
                        : "in the metric's own unit (as in pairs.csv)")
                .append(", 95% t interval; Wilcoxon p, Holm over ").append(c.pairs().size()).append(" pair(s)\n");
        String block = null;
        for (Comparison.Pair p : c.pairs()) {
            String b = p.dataset() + " / " + p.setting();
            if (!b.equals(block)) {
                sb.append(b).append('\n');
                block = b;
            }
            sb.append(String.format(Locale.ROOT, "  %-18s vs %-18s n=%-5d %+8.3f%s [%+.3f, %+.3f]%s  w/t/l %d/%d/%d  "
                            + "p=%.3g  p_holm=%.3g%n", p.method(), p.baseline(), p.diff().n(), scale * p.diff().mean(),
                    unit, scale * p.diff().tLow(), scale * p.diff().tHigh(), unit, p.diff().wins(), p.diff().ties(),
                    p.diff().losses(), p.p(), p.pHolm()));
        }
        if (!c.rankedMethods().isEmpty() && c.blocks() != null) {
            sb.append("average ranks:");
            for (int k = 0; k < c.rankedMethods().size(); k++) {
                sb.append(String.format(Locale.ROOT, " %s %.2f", c.rankedMethods().get(k),
                        c.blocks().averageRank(k)));
            }
            sb.append('\n');
        }
        sb.append(c.friedmanLine()).append('\n');
        return sb.toString();
    }
}
