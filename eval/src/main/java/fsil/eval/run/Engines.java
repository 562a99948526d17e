package fsil.eval.run;

import fsil.api.FsilException;
import fsil.api.Registry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The engines of this process: {@code local} and every {@link EngineProvider} on the class path. */
public final class Engines {
    public static final String LOCAL = LocalEngine.NAME;

    private Engines() {
    }

    /** The names of the engines that can be used, {@code local} first. */
    public static List<String> names() {
        List<String> out = new ArrayList<>(List.of(LOCAL));
        providers().ids().stream().filter(n -> !n.equals(LOCAL)).sorted().forEach(out::add);
        return out;
    }

    /** The engine of this name with these options (the local engine takes none). */
    public static Engine create(String name, Map<String, String> options) {
        if (name == null || name.equals(LOCAL)) {
            if (!options.isEmpty()) {
                throw new FsilException("the local engine takes no engine options (" + String.join(", ",
                        options.keySet()) + "); --master and --engine-option are for other engines, e.g. "
                        + "--engine spark --master local[2]");
            }
            return new LocalEngine();
        }
        Registry<EngineProvider> providers = providers();
        if (!providers.contains(name)) {
            throw new FsilException("engine '" + name + "' is not on the class path (engines here: "
                    + String.join(", ", names()) + ")" + (name.equals("spark") ? ". The Spark engine is an optional "
                    + "module: build it with 'mvn -Pspark -pl engine-spark -am package -DskipTests' and run "
                    + "bin/fsil with FSIL_ENGINE=spark (see engine-spark/README.md)" : ""));
        }
        return providers.get(name).create(Map.copyOf(options));
    }

    private static Registry<EngineProvider> providers() {
        return Registry.discover("engine", EngineProvider.class, EngineProvider::name);
    }
}
