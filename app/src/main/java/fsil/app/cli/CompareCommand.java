package fsil.app.cli;

import fsil.api.FsilException;
import fsil.eval.compare.Comparison;
import fsil.eval.compare.RunSet;
import fsil.eval.report.CompareReport;
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
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** Paired statistics and ranks of the methods of one or more runs on identical tasks. */
@Command(name = "compare", sortOptions = false, mixinStandardHelpOptions = true, description = {
        "Compare methods run on identical tasks (same units, same seeds): per pair and per dataset x setting, the "
                + "mean paired difference with its 95%% interval, win/tie/loss counts and the Wilcoxon signed-rank "
                + "p-value, Holm-corrected over all pairs; across blocks, average ranks, the Friedman test "
                + "(Iman-Davenport form) and the Nemenyi critical difference. Writes pairs.csv, ranks.csv, "
                + "friedman.txt and compare.html.",
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
    @Option(names = "--out", paramLabel = "DIR", description = "where the tables and compare.html go (default: the "
            + "run directory when there is one; required with several)")
    Path out;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        List<UnitRecord> rows = RunSet.load(runs, pool);
        Comparison c = Comparison.of(rows, Cli.plugins().metrics().all(), metric, baseline);
        Path dir = out;
        if (dir == null && runs.size() > 1) {
            throw new FsilException("give --out DIR for the comparison of several runs (it is written to no run "
                    + "directory)");
        }
        PrintWriter o = spec.commandLine().getOut();
        o.print(text(c));
        String title = "fsil compare: " + String.join(", ", runs.stream().map(Path::toString).toList());
        if (dir == null) {
            try (RunDirectory run = RunDirectory.open(runs.get(0))) {
                CompareReport.write(run.path(), c, title);
            }
            dir = runs.get(0);
        } else {
            if (Files.isDirectory(dir) && Files.isRegularFile(dir.resolve(RunDirectory.SPEC)) && !runs.contains(dir)) {
                throw new FsilException("--out " + dir + " is another run's directory; choose a new directory");
            }
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new FsilException("cannot create " + dir + ": " + e.getMessage(), e);
            }
            CompareReport.write(dir, c, title);
        }
        o.println("wrote " + dir.resolve(CompareReport.PAIRS) + ", " + CompareReport.RANKS + ", "
                + CompareReport.FRIEDMAN + " and " + CompareReport.HTML);
        o.flush();
        return 0;
    }

    /** The comparison as terminal text: one line per pair, then the Friedman line. */
    static String text(Comparison c) {
        boolean percent = CompareReport.percent(c.metric());
        double scale = percent ? 100 : 1;
        StringBuilder sb = new StringBuilder();
        sb.append("paired differences in ").append(c.metric()).append(percent ? " (points)" : "")
                .append(", method - baseline, 95% t interval; Wilcoxon p, Holm over ").append(c.pairs().size())
                .append(" pair(s)\n");
        String block = null;
        for (Comparison.Pair p : c.pairs()) {
            String b = p.dataset() + " / " + p.setting();
            if (!b.equals(block)) {
                sb.append(b).append('\n');
                block = b;
            }
            sb.append(String.format(Locale.ROOT, "  %-18s vs %-18s n=%-5d %+8.3f [%+.3f, %+.3f]  w/t/l %d/%d/%d  "
                            + "p=%.3g  p_holm=%.3g%n", p.method(), p.baseline(), p.diff().n(), scale * p.diff().mean(),
                    scale * p.diff().tLow(), scale * p.diff().tHigh(), p.diff().wins(), p.diff().ties(),
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
