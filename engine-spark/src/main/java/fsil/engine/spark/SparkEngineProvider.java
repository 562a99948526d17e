package fsil.engine.spark;

import fsil.api.Param;
import fsil.api.Params;
import fsil.eval.run.Engine;
import fsil.eval.run.EngineProvider;

import java.util.List;

/**
 * {@code fsil run --engine spark [--master URL] [--engine-option NAME=VALUE ...]}, with the typed parameters
 * {@code master}, {@code features}, {@code units-per-task} and {@code executor-cache} ({@code fsil engines} lists
 * them). Any other Spark setting comes from {@code -Dspark.NAME=VALUE} (FSIL_JAVA_OPTS) or spark-submit.
 */
public final class SparkEngineProvider implements EngineProvider {
    /** Where executors get the datasets' features. */
    public enum Features { AUTO, BROADCAST, SHARED, IN_PROCESS }

    static final Param<String> MASTER = Param.text("master", "",
            "the Spark master (--master): local[N], spark://host:7077, yarn, k8s://...; empty: Spark's default");
    static final Param<Features> FEATURES = Param.option("features", Features.AUTO,
            "auto (in-process for local masters, else broadcast), broadcast, shared (each executor loads the"
                    + " datasets from a path every node reads) or in-process");
    static final Param<Integer> UNITS_PER_TASK = Param.integer("units-per-task", 0, 0, Integer.MAX_VALUE,
            "units per Spark task; 0: about sixteen tasks per executor core");
    static final Param<String> EXECUTOR_CACHE = Param.text("executor-cache", "",
            "the cache directory on executors; empty: the driver's");

    @Override
    public String id() {
        return SparkEngine.NAME;
    }

    @Override
    public String description() {
        return "Apache Spark " + org.apache.spark.package$.MODULE$.SPARK_VERSION()
                + ": units as tasks on local[N], standalone, YARN or Kubernetes executors";
    }

    @Override
    public List<Param<?>> parameters() {
        return List.of(MASTER, FEATURES, UNITS_PER_TASK, EXECUTOR_CACHE);
    }

    @Override
    public Engine create(Params p) {
        String cache = p.get(EXECUTOR_CACHE);
        return new SparkEngine(p.get(MASTER).isBlank() ? null : p.get(MASTER), Param.text(p.get(FEATURES)),
                p.get(UNITS_PER_TASK), cache.isBlank() ? null : cache);
    }
}
