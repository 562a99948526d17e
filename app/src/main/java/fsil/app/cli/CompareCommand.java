package fsil.app.cli;

import fsil.api.FsilException;
import fsil.eval.compare.Comparison;
import fsil.eval.compare.RunSet;
import fsil.eval.report.CompareReport;
import fsil.eval.report.PlotlyAsset;
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

/** Paired statistics and ranks of the methods of one or more runs on identical tasks. */
@Command(name = "compare", sortOptions = false, mixinStandardHelpOptions = true, description = {
        "Compare methods run on identical tasks (same units, same seeds): per pair and per dataset x setting, the "
                + "mean paired difference with its 95%% interval, win/tie/loss counts and the Wilcoxon signed-rank "
                + "p-value, Holm-corrected over all pairs; across blocks, average ranks, the Friedman test "
                + "(Iman-Davenport form) and the Nemenyi critical difference. Differences of accuracies and "
                + "forgetting are printed in percentage points (pp); pairs.csv keeps them as fractions (0.01 = 1 pp). "
                + "Writes pairs.csv, ranks.csv, friedman.txt and compare.html into a new directory (--out).",
        "Example: fsil compare runs/fewshot-a runs/fewshot-b --baseline ncm --metric episode_acc"})
final class CompareCommand extends CachedCommand {
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

    @Override
    public Integer call() {
        Path dir = out != null ? out : Paths.get("runs", "compare-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        RunDirectory.requireNewOrEmpty(dir, "a comparison"); // before any work; again just before writing
        List<UnitRecord> rows = RunSet.load(runs, pool);
        Comparison c = Comparison.of(rows, plugins.metrics().all(), metric, baseline);
        PrintWriter o = spec.commandLine().getOut();
        o.print(text(c));
        o.flush();
        write(dir, c, "fsil compare: " + String.join(", ", runs.stream().map(Path::toString).toList()),
                cacheDir);
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
                    CompareReport.HTML, PlotlyAsset.FILE)) {
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
     * The comparison as terminal text, at most {@link TermTable#WIDTH} columns wide: what is compared, a table with
     * one row per pair (dataset, setting and baseline in the title when they are the same in every row; long labels
     * shortened, with a legend), then the average ranks and the Friedman line. Differences of fractions
     * (accuracies, forgetting) are shown in percentage points, named in the header and the column titles;
     * pairs.csv keeps the fractions.
     */
    static String text(Comparison c) {
        boolean percent = CompareReport.percent(c.metric());
        double scale = percent ? 100 : 1;
        String unit = percent ? " pp" : "";
        StringBuilder sb = new StringBuilder();
        sb.append(TextWrap.wrap("", "paired differences in " + c.metric() + ", method - baseline, "
                + (percent ? "in percentage points (pp; pairs.csv holds fractions: 0.01 = 1 pp)"
                : "in the metric's own unit (as in pairs.csv)")
                + ", 95% t interval; Wilcoxon p, Holm over " + c.pairs().size() + " pair(s)", 0, TermTable.WIDTH))
                .append('\n');
        TermTable t = new TermTable("pairs").key("dataset", Headline.DATASET_CAP).key("setting", Headline.SETTING_CAP)
                .label("method", Headline.METHOD_CAP).key("baseline", Headline.METHOD_CAP).value("n")
                .value("diff" + unit).value("95% interval" + unit).value("w/t/l").value("p").value("p_holm");
        for (Comparison.Pair p : c.pairs()) {
            t.row(p.dataset(), p.setting(), p.method(), p.baseline(), Integer.toString(p.diff().n()),
                    String.format(Locale.ROOT, "%+.3f", scale * p.diff().mean()),
                    String.format(Locale.ROOT, "[%+.3f, %+.3f]", scale * p.diff().tLow(), scale * p.diff().tHigh()),
                    p.diff().wins() + "/" + p.diff().ties() + "/" + p.diff().losses(),
                    String.format(Locale.ROOT, "%.3g", p.p()), String.format(Locale.ROOT, "%.3g", p.pHolm()));
        }
        sb.append(t.render(TermTable.WIDTH));
        if (!c.rankedMethods().isEmpty() && c.blocks() != null) {
            StringBuilder ranks = new StringBuilder();
            for (int k = 0; k < c.rankedMethods().size(); k++) {
                ranks.append(String.format(Locale.ROOT, " %s %.2f%s", c.rankedMethods().get(k),
                        c.blocks().averageRank(k), k < c.rankedMethods().size() - 1 ? "," : ""));
            }
            sb.append(TextWrap.wrap("average ranks: ", ranks.toString(), 2, TermTable.WIDTH)).append('\n');
        }
        sb.append(TextWrap.hanging(c.friedmanLine(), 2, TermTable.WIDTH)).append('\n');
        return sb.toString();
    }
}
