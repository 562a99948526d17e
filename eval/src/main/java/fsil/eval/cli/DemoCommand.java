package fsil.eval.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** A small comparison of the available methods on the embedded default dataset. */
@Command(name = "demo", description = "Compare the available methods on the embedded digits dataset and write a report.")
final class DemoCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().println("(demo is being wired)");
        return 0;
    }
}
