package fsil.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Registry;
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
@Command(name = "methods", description = "List the available methods, their capabilities and parameters.")
final class MethodsCommand implements Callable<Integer> {
    @Option(names = "--json", description = "machine-readable output")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Registry<Method> registry = Cli.plugins().methods();
        if (json) {
            List<Map<String, Object>> list = new ArrayList<>();
            for (Method m : registry.all()) {
                list.add(describe(m));
            }
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(list));
            return 0;
        }
        for (Method m : registry.all()) {
            out.printf("%s  -  %s%n", m.id(), m.description());
            if (!m.reference().isEmpty()) {
                out.printf("    paper: %s%n", m.reference());
            }
            out.printf("    capabilities: %s%n", m.capabilities());
            for (Param<?> p : m.parameters()) {
                out.printf("    %-22s %-40s default %-10s %s%n", p.name(), p.domain(), p.format(p.defaultValue()), p.doc());
            }
            out.println();
        }
        return 0;
    }

    static Map<String, Object> describe(Method m) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("id", m.id());
        d.put("description", m.description());
        d.put("reference", m.reference());
        d.put("capabilities", m.capabilities().stream().map(Enum::name).toList());
        List<Map<String, Object>> ps = new ArrayList<>();
        for (Param<?> p : m.parameters()) {
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
        d.put("parameters", ps);
        d.put("class", m.getClass().getName());
        return d;
    }
}
