package fsil.app.cli;

import fsil.eval.report.Report;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** Rebuilds a run's summaries and HTML report from its units.csv. */
@Command(name = "report", description = "Rebuild summary.csv, a_matrix.csv, reliability.csv and report.html of a run "
        + "directory from its units.csv.")
final class ReportCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "run directory")
    Path dir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Report.rebuild(dir);
        spec.commandLine().getOut().println("wrote " + dir.resolve(Report.HTML));
        return 0;
    }
}
