package fsil.app.cli;

import com.google.inject.Guice;
import com.google.inject.Injector;
import fsil.api.FsilException;
import fsil.app.FsilModule;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The {@code fsil} command line. User errors print one clear message (exit 2), never a stack trace.
 *
 * <p>This is the application's assembly: once the arguments are parsed, one Guice injector is made (with the parsed
 * command's {@code --cache}, see {@link CachedCommand}) and it fills the {@code @Inject} fields of every command; no
 * command looks anything up itself.
 */
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
        RunCommand runCommand = run.getCommand();
        run.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER, help -> {
            // the protocols are plugins: known once the command is injected, i.e. when the help is printed
            help.commandSpec().usageMessage().footer(runCommand.protocolOptions(run.getUsageHelpWidth()));
            return help.footer();
        });
        cl.setExecutionStrategy(parsed -> {
            inject(cl, parsed);
            return new CommandLine.RunLast().execute(parsed);
        });
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

    /** Fills the commands' {@code @Inject} fields from one injector, made with the parsed command's cache directory. */
    private static void inject(CommandLine cl, CommandLine.ParseResult parsed) {
        Object command = parsed.asCommandLineList().get(parsed.asCommandLineList().size() - 1).getCommand();
        Path cache = command instanceof CachedCommand c ? c.cache : null;
        Injector injector;
        try {
            injector = Guice.createInjector(new FsilModule().withCacheDir(cache));
        } catch (RuntimeException e) {
            throw new CommandLine.ExecutionException(cl, "cannot assemble the plugins", e);
        }
        Deque<CommandLine> todo = new ArrayDeque<>(java.util.List.of(cl));
        while (!todo.isEmpty()) {
            CommandLine c = todo.pop();
            injector.injectMembers(c.getCommand());
            todo.addAll(c.getSubcommands().values());
        }
    }

    /** Version from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[]{"fsil " + fsil.eval.run.Environment.version()};
        }
    }
}
