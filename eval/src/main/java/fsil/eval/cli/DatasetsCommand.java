package fsil.eval.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** Lists the datasets with availability, size, classes and splits. */
@Command(name = "datasets", description = "List the datasets: availability, size, classes, splits.")
final class DatasetsCommand implements Callable<Integer> {
    @Option(names = "--json", description = "machine-readable output")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().println("(datasets are being wired)");
        return 0;
    }
}
