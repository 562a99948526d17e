package fsil.engine.spark.testing;

import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Params;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.testkit.ToyNearestMeanMethod;
import org.apache.spark.TaskContext;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test plugin (found by ServiceLoader through the test resources): the toy nearest-mean learner that throws in
 * {@code learn} when the hash of the support's features is divisible by {@code fail-mod}, and whose parameters are
 * refused on a Spark task thread when {@code refuse-executors=1} (an executor that cannot rebuild the plan).
 * Counts what it threw.
 */
public final class SparkProbeMethod implements Method {
    static final Param<Integer> FAIL_MOD = Param.integer("fail-mod", 0, 0, 1000, "throw in learn when the support hash % m == 0");
    static final Param<Integer> REFUSE = Param.integer("refuse-executors", 0, 0, 1, "refuse to resolve on a Spark task");
    /** learn() calls that threw. */
    public static final AtomicInteger FAILURES = new AtomicInteger();
    /** parameter resolutions refused on a task thread. */
    public static final AtomicInteger REFUSALS = new AtomicInteger();

    private final ToyNearestMeanMethod toy = new ToyNearestMeanMethod();

    @Override
    public String id() {
        return "spark-probe";
    }

    @Override
    public String description() {
        return "test method of engine-spark";
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.INDUCTIVE_FEWSHOT, Capability.CLASS_INCREMENTAL);
    }

    @Override
    public List<Param<?>> parameters() {
        return List.of(FAIL_MOD, REFUSE);
    }

    @Override
    public Params params(Map<String, String> values) {
        Params p = Method.super.params(values);
        if (p.get(REFUSE) == 1 && TaskContext.get() != null) {
            REFUSALS.incrementAndGet();
            throw new FsilException("spark-probe refuses to be resolved on an executor");
        }
        return p;
    }

    @Override
    public Learner learner(Params params, Background background) {
        int failMod = params.get(FAIL_MOD);
        Learner inner = toy.learner(toy.defaults(), background);
        return ctx -> {
            Session s = inner.newSession(ctx);
            return new Session() {
                @Override
                public void learn(LabeledData data) {
                    int h = java.util.Arrays.hashCode(data.features().rawData());
                    if (failMod > 0 && Math.floorMod(h, failMod) == 0) {
                        FAILURES.incrementAndGet();
                        throw new IllegalStateException("deliberate failure on support " + Math.floorMod(h, 1000));
                    }
                    s.learn(data);
                }

                @Override
                public Prediction predict(FeatureMatrix q) {
                    return s.predict(q);
                }

                @Override
                public long memoryBytes() {
                    return s.memoryBytes();
                }

                @Override
                public Map<String, Double> diagnostics() {
                    return s.diagnostics();
                }
            };
        };
    }
}
