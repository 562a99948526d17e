package fsil.engine.spark;

import fsil.app.cli.Main;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The spark-submit entry point: the arguments of {@code fsil run}, run with the Spark engine on the master and
 * configuration spark-submit gives.
 *
 * <pre>
 * spark-submit --class fsil.engine.spark.SparkMain --master spark://host:7077 \
 *   --jars "$(ls engine-spark/target/lib/*.jar | paste -sd,)" engine-spark/target/engine-spark-0.1.0-SNAPSHOT.jar \
 *   --run-file study.yaml --out /shared/runs/study
 * </pre>
 */
public final class SparkMain {
    private SparkMain() {
    }

    public static void main(String[] args) {
        List<String> a = new ArrayList<>(Arrays.asList(args));
        if (a.isEmpty() || !a.get(0).equals("run")) {
            a.add(0, "run");
        }
        if (!a.contains("--engine")) {
            a.addAll(List.of("--engine", SparkEngine.NAME));
        }
        System.exit(Main.execute(a.toArray(new String[0]), new PrintWriter(System.out, true),
                new PrintWriter(System.err, true)));
    }
}
