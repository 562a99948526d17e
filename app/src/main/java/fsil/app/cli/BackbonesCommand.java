package fsil.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import fsil.data.Backbone;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** Lists the discovered backbones with their parameters. */
@Command(name = "backbones", mixinStandardHelpOptions = true,
        description = "List the available backbones and their parameters (--backbone 'id[key=value,...]').")
final class BackbonesCommand implements Callable<Integer> {
    @Option(names = "--json", description = "machine-readable output")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        List<Backbone> all = Cli.plugins().backbones().all();
        if (json) {
            List<Map<String, Object>> list = new ArrayList<>();
            for (Backbone b : all) {
                list.add(MethodsCommand.describePlugin(b));
            }
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(list));
            return 0;
        }
        int width = spec.commandLine().getUsageHelpWidth();
        for (Backbone b : all) {
            out.println(TextWrap.wrap(b.id() + "  -  ", b.description(), 4, width));
            if (!b.parameters().isEmpty()) {
                out.println(MethodsCommand.parameters(b.parameters(), width));
            }
            out.println();
        }
        return 0;
    }
}
