package fsil.app.cli;

import fsil.api.FsilException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/** The {@code fsil} command line. User errors print one clear message (exit 2), never a stack trace. */
@Command(name = "fsil", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Few-shot and class-incremental classification research toolkit.",
        subcommands = {MethodsCommand.class, DatasetsCommand.class, BackbonesCommand.class, ProtocolsCommand.class,
                MetricsCommand.class,
                EnginesCommand.class,
                RunCommand.class, ReportCommand.class,
                CompareCommand.class,
                DemoCommand.class, BenchCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line; returns the exit code (0 ok, 1 internal error, 2 user error). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(out);
        cl.setErr(err);
        cl.setUsageHelpAutoWidth(true);
        cl.setHelpFactory(WrappingHelp::new);
        CommandLine run = cl.getSubcommands().get("run");
        run.getCommandSpec().usageMessage().footer(RunCommand.protocolOptions(run.getUsageHelpWidth()));
        cl.setExecutionExceptionHandler((ex, line, parsed) -> {
            Throwable t = ex;
            while (!(t instanceof FsilException) && t.getCause() != null && t.getCause() != t) {
                t = t.getCause();
            }
            if (t instanceof FsilException) {
                line.getErr().println("error: " + t.getMessage());
                return 2;
            }
            if (t instanceof OutOfMemoryError) {
                line.getErr().println("error: out of memory (" + t.getMessage() + "); give Java more with "
                        + "FSIL_JAVA_OPTS=-Xmx8g, or use fewer --threads");
                return 2;
            }
            line.getErr().println("internal error (please report it):");
            ex.printStackTrace(line.getErr());
            return 1;
        });
        return cl.execute(args);
    }

    /** Version from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[]{"fsil " + fsil.eval.run.Environment.version()};
        }
    }
}
