package fsil.engine.spark;

import fsil.api.FsilException;
import fsil.eval.run.Engine;
import fsil.eval.run.EngineProvider;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code fsil run --engine spark [--master URL] [--engine-option NAME=VALUE ...]}. Options: {@code master};
 * {@code features} = auto (default: in-process for local masters, else broadcast), broadcast, shared (each executor
 * loads the datasets itself from a path every node reads) or in-process; {@code units-per-task} (default: about
 * sixteen tasks per executor core); {@code executor-cache} (the cache directory on executors, default the driver's).
 * Any other Spark setting comes from {@code -Dspark.NAME=VALUE} (FSIL_JAVA_OPTS) or spark-submit.
 */
public final class SparkEngineProvider implements EngineProvider {
    static final Set<String> OPTIONS = Set.of("master", "features", "units-per-task", "executor-cache");
    static final List<String> FEATURES = List.of("auto", "broadcast", "shared", "in-process");

    @Override
    public String name() {
        return SparkEngine.NAME;
    }

    @Override
    public String description() {
        return "Apache Spark " + org.apache.spark.package$.MODULE$.SPARK_VERSION()
                + ": units as tasks on local[N], standalone, YARN or Kubernetes executors";
    }

    @Override
    public Engine create(Map<String, String> options) {
        Map<String, String> o = new HashMap<>(options);
        for (String k : o.keySet()) {
            if (!OPTIONS.contains(k)) {
                throw new FsilException("the spark engine has no option '" + k + "' (options: master, features, "
                        + "units-per-task, executor-cache; Spark settings go in -Dspark.NAME=VALUE)");
            }
        }
        String features = o.getOrDefault("features", "auto");
        if (!FEATURES.contains(features)) {
            throw new FsilException("engine option features must be one of " + String.join(", ", FEATURES)
                    + ", got '" + features + "'");
        }
        int per = 0;
        if (o.containsKey("units-per-task")) {
            try {
                per = Integer.parseInt(o.get("units-per-task"));
            } catch (NumberFormatException e) {
                per = -1;
            }
            if (per < 1) {
                throw new FsilException("engine option units-per-task must be a positive integer, got '"
                        + o.get("units-per-task") + "'");
            }
        }
        String master = o.get("master");
        if (master != null && master.isBlank()) {
            throw new FsilException("--master is empty: give e.g. local[2] or spark://host:7077");
        }
        return new SparkEngine(master, features, per, o.get("executor-cache"));
    }
}
