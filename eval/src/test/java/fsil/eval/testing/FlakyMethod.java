package fsil.eval.testing;

import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Params;
import fsil.api.Prediction;
import fsil.api.Session;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Test method: predicts the class whose id equals round(feature 0) when it is known ("oracle" on purpose-built
 * data), otherwise the smallest class; throws on learn() when the support's first label is divisible by
 * {@code fail-mod}, and can sleep to make runs slow enough to kill.
 */
public final class FlakyMethod implements Method {
    static final Param<Integer> FAIL_MOD = Param.integer("fail-mod", 0, 0, 1000, "throw when first label % m == 0 (0 = never)");
    static final Param<Integer> SLEEP_MS = Param.integer("sleep-ms", 0, 0, 100000, "sleep in predict");

    @Override
    public String id() {
        return "flaky";
    }

    @Override
    public String description() {
        return "test method";
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.INDUCTIVE_FEWSHOT, Capability.CLASS_INCREMENTAL, Capability.FEWSHOT_CLASS_INCREMENTAL);
    }

    @Override
    public List<Param<?>> parameters() {
        return List.of(FAIL_MOD, SLEEP_MS);
    }

    @Override
    public Learner learner(Params params, Background background) {
        int failMod = params.get(FAIL_MOD);
        int sleep = params.get(SLEEP_MS);
        return ctx -> new Session() {
            int[] classes = new int[0];

            @Override
            public void learn(LabeledData data) {
                if (failMod > 0 && data.labels()[0] % failMod == 0) {
                    throw new IllegalStateException("deliberate failure on class " + data.labels()[0]);
                }
                int[] merged = Arrays.copyOf(classes, classes.length + data.classes().length);
                System.arraycopy(data.classes(), 0, merged, classes.length, data.classes().length);
                classes = Arrays.stream(merged).distinct().sorted().toArray();
            }

            @Override
            public Prediction predict(FeatureMatrix q) {
                if (sleep > 0) {
                    try {
                        Thread.sleep(sleep);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                double[] p = new double[q.rows() * classes.length];
                for (int i = 0; i < q.rows(); i++) {
                    int guess = Arrays.binarySearch(classes, Math.round(q.get(i, 0)));
                    p[i * classes.length + Math.max(guess, 0)] = 1;
                }
                return Prediction.of(classes, p);
            }

            @Override
            public long memoryBytes() {
                return classes.length * 4L;
            }
        };
    }
}
