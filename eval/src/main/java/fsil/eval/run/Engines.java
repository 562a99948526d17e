package fsil.eval.run;

import fsil.api.FsilException;
import fsil.api.Registry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Choosing an engine among the {@link EngineProvider}s of this process ({@code local} and any on the class path). */
public final class Engines {
    public static final String LOCAL = LocalEngine.NAME;

    private Engines() {
    }

    /** The engines {@link java.util.ServiceLoader} finds. */
    public static Registry<EngineProvider> discover() {
        return Registry.discover("engine", EngineProvider.class, EngineProvider::id);
    }

    /** The names of the engines that can be used, {@code local} first. */
    public static List<String> names(Registry<EngineProvider> engines) {
        List<String> out = new ArrayList<>(List.of(LOCAL));
        engines.ids().stream().filter(n -> !n.equals(LOCAL)).sorted().forEach(out::add);
        return out;
    }

    /**
     * The engine of this id (null: local) with these textual parameter values; unknown engines, parameters and bad
     * values are rejected with the valid choices.
     */
    public static Engine create(Registry<EngineProvider> engines, String id, Map<String, String> options) {
        String name = id == null ? LOCAL : id;
        if (!engines.contains(name)) {
            throw new FsilException("engine '" + name + "' is not on the class path (engines here: "
                    + String.join(", ", names(engines)) + ")" + (name.equals("spark") ? ". The Spark engine is an"
                    + " optional module: build it with 'mvn -Pspark -pl engine-spark -am package -DskipTests' and run "
                    + "bin/fsil with FSIL_ENGINE=spark (see engine-spark/README.md)" : ""));
        }
        EngineProvider p = engines.get(name);
        if (name.equals(LOCAL) && !options.isEmpty()) {
            throw new FsilException("the local engine takes no engine options (" + String.join(", ",
                    options.keySet()) + "); --master and --engine-option are for other engines, e.g. "
                    + "--engine spark --master local[2]");
        }
        return p.create(p.params(options));
    }
}
