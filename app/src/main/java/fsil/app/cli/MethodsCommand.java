package fsil.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Registry;
import fsil.app.Plugins;
import jakarta.inject.Inject;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** Lists the discovered methods with capabilities and parameters. */
@Command(name = "methods", mixinStandardHelpOptions = true, description = "List the available methods, their capabilities and parameters.")
final class MethodsCommand implements Callable<Integer> {
    @Option(names = "--json", description = "machine-readable output")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    @Inject
    Plugins plugins;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Registry<Method> registry = plugins.methods();
        if (json) {
            List<Map<String, Object>> list = new ArrayList<>();
            for (Method m : registry.all()) {
                list.add(describe(m));
            }
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(list));
            return 0;
        }
        int width = spec.commandLine().getUsageHelpWidth();
        for (Method m : registry.all()) {
            out.println(TextWrap.wrap(m.id() + "  -  ", m.description(), 4, width));
            if (!m.reference().isEmpty()) {
                out.println(TextWrap.wrap("    paper: ", m.reference(), 11, width));
            }
            out.println(TextWrap.wrap("    capabilities: ", String.join(", ", m.capabilities().stream()
                    .map(c -> c.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')).toList()), 18, width));
            out.println(parameters(m.parameters(), width));
            out.println();
        }
        return 0;
    }

    /** Parameters (of a method or a protocol) as wrapped lines: name, default, domain, then the documentation. */
    static String parameters(List<Param<?>> params, int width) {
        StringBuilder sb = new StringBuilder();
        for (Param<?> p : params) {
            if (sb.length() > 0) {
                sb.append('\n');
            }
            sb.append(TextWrap.wrap("    " + p.name() + "=" + p.format(p.defaultValue()) + "  ",
                    "(" + p.domain() + ") " + p.doc(), 8, width));
        }
        return sb.toString();
    }

    static Map<String, Object> describe(Method m) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("id", m.id());
        d.put("description", m.description());
        d.put("reference", m.reference());
        d.put("capabilities", m.capabilities().stream().map(Enum::name).toList());
        d.put("parameters", parameters(m.parameters()));
        d.put("class", m.getClass().getName());
        return d;
    }

    /** Any plugin's id, description, parameters and class, as {@code --json} lists them. */
    static Map<String, Object> describePlugin(fsil.api.Plugin p) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("id", p.id());
        d.put("description", p.description());
        d.put("parameters", parameters(p.parameters()));
        d.put("class", p.getClass().getName());
        return d;
    }

    static List<Map<String, Object>> parameters(List<Param<?>> params) {
        List<Map<String, Object>> ps = new ArrayList<>();
        for (Param<?> p : params) {
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("name", p.name());
            pm.put("type", p.type().name().toLowerCase(java.util.Locale.ROOT));
            pm.put("default", p.defaultValue() instanceof Enum<?> e ? Param.text(e) : p.defaultValue());
            pm.put("domain", p.domain());
            if (!p.choices().isEmpty()) {
                pm.put("choices", p.choices());
            }
            pm.put("doc", p.doc());
            ps.add(pm);
        }
        return ps;
    }
}
