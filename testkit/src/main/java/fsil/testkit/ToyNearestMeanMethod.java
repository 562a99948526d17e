package fsil.testkit;

import fsil.api.*;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A minimal nearest-class-mean method (softmax of -scale * squared distance) for tests of the SPI, the conformance
 * kit and the evaluation layer, and as a small example of a method plugin. Its id and capabilities can be chosen,
 * so a test can stand in for any kind of method.
 */
public class ToyNearestMeanMethod extends AbstractMethod {
    public static final Param<Double> SCALE = Param.real("scale", 1.0, 0.0, 1e6, "softmax scale on negative squared distances");
    static final Param<Boolean> MUTATE = Param.bool("mutate", false, "misbehave by writing into the inputs (kit self-test)");
    static final Param<Boolean> NOISY = Param.bool("noisy", false, "misbehave by ignoring the seed (kit self-test)");

    /** {@code toy-ncm}: inductive few-shot and class-incremental. */
    public ToyNearestMeanMethod() {
        this("toy-ncm", EnumSet.of(Capability.INDUCTIVE_FEWSHOT, Capability.CLASS_INCREMENTAL));
    }

    public ToyNearestMeanMethod(String id, Set<Capability> capabilities) {
        super(id, "Toy nearest class mean (tests and examples)", "", capabilities, List.of(SCALE, MUTATE, NOISY));
    }

    @Override
    public Learner learner(Params params, Background background) {
        double scale = params.get(SCALE);
        boolean mutate = params.get(MUTATE);
        boolean noisy = params.get(NOISY);
        return ctx -> new Session() {
            final Map<Integer, double[]> sums = new TreeMap<>();
            final Map<Integer, Integer> counts = new TreeMap<>();

            @Override
            public void learn(LabeledData data) {
                data.requireFinite("training features");
                int d = data.dimension();
                for (int i = 0; i < data.size(); i++) {
                    double[] s = sums.computeIfAbsent(data.labels()[i], k -> new double[d]);
                    for (int j = 0; j < d; j++) {
                        s[j] += data.features().get(i, j);
                    }
                    counts.merge(data.labels()[i], 1, Integer::sum);
                }
                if (mutate && data.size() > 0) {
                    data.features().rawData()[0] += 1;
                }
            }

            @Override
            public Prediction predict(FeatureMatrix q) {
                q.requireFinite("query features");
                int[] classes = sums.keySet().stream().mapToInt(Integer::intValue).toArray();
                List<double[]> means = new ArrayList<>();
                for (int c : classes) {
                    double[] s = sums.get(c).clone();
                    for (int j = 0; j < s.length; j++) {
                        s[j] /= counts.get(c);
                    }
                    means.add(s);
                }
                double[] p = new double[q.rows() * classes.length];
                for (int i = 0; i < q.rows(); i++) {
                    double max = Double.NEGATIVE_INFINITY;
                    for (int k = 0; k < classes.length; k++) {
                        double dist = 0;
                        for (int j = 0; j < q.cols(); j++) {
                            double t = q.get(i, j) - means.get(k)[j];
                            dist += t * t;
                        }
                        double logit = -scale * dist + (noisy ? Math.random() * 1e-3 : 0);
                        p[i * classes.length + k] = logit;
                        max = Math.max(max, logit);
                    }
                    double z = 0;
                    for (int k = 0; k < classes.length; k++) {
                        p[i * classes.length + k] = Math.exp(p[i * classes.length + k] - max);
                        z += p[i * classes.length + k];
                    }
                    for (int k = 0; k < classes.length; k++) {
                        p[i * classes.length + k] /= z;
                    }
                }
                return Prediction.of(classes, p);
            }

            @Override
            public long memoryBytes() {
                return sums.values().stream().mapToLong(a -> 8L * a.length).sum();
            }
        };
    }
}
