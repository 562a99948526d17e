package fsil.app.cli;

import fsil.eval.compare.RunSet;
import fsil.eval.report.Report;
import fsil.eval.store.RunDirectory;
import fsil.eval.store.UnitStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/** Rebuilds a run's summaries and HTML report from its units.csv, naming every invalid row. */
@Command(name = "report", mixinStandardHelpOptions = true, description = "Rebuild summary.csv, a_matrix.csv, "
        + "reliability.csv and report.html of a run directory from its units.csv. Invalid rows are named and left "
        + "out (exit code 3); 'fsil run --resume DIR' recomputes them.")
final class ReportCommand extends CachedCommand {
    @Parameters(index = "0", paramLabel = "DIR", description = "run directory")
    Path dir;

    @Override
    public Integer call() {
        List<UnitStore.Invalid> invalid;
        RunSet.requireRun(dir, "report");   // a directory of runs (the demo's) names them
        try (RunDirectory run = RunDirectory.open(dir)) {
            invalid = Report.rebuild(run.path(), plugins.metrics().all(), cacheDir);
        }
        PrintWriter err = spec.commandLine().getErr();
        for (UnitStore.Invalid i : invalid) {
            err.println("invalid row of " + UnitStore.FILE + ", " + i);
        }
        if (!invalid.isEmpty()) {
            err.println("the summaries leave out these " + invalid.size() + " row(s); 'fsil run --resume " + dir
                    + "' recomputes them");
        }
        err.flush();
        spec.commandLine().getOut().println("wrote " + dir.resolve(Report.HTML));
        return invalid.isEmpty() ? 0 : 3;
    }
}
