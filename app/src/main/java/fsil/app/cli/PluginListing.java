package fsil.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import fsil.api.Plugin;
import fsil.app.Plugins;
import jakarta.inject.Inject;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The listing of one plugin kind ({@code fsil backbones}, {@code fsil engines}, ...): each plugin's id, description
 * and typed parameters, as text or {@code --json}.
 */
abstract class PluginListing implements Callable<Integer> {
    @Option(names = "--json", description = "machine-readable output")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    @Inject
    Plugins installed;

    /** The plugins to list, in order. */
    abstract List<? extends Plugin> plugins();

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            List<Map<String, Object>> list = new ArrayList<>();
            for (Plugin p : plugins()) {
                list.add(MethodsCommand.describePlugin(p));
            }
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(list));
            return 0;
        }
        int width = spec.commandLine().getUsageHelpWidth();
        for (Plugin p : plugins()) {
            out.println(TextWrap.wrap(p.id() + "  -  ", p.description(), 4, width));
            if (!p.parameters().isEmpty()) {
                out.println(MethodsCommand.parameters(p.parameters(), width));
            }
            out.println();
        }
        return 0;
    }
}
