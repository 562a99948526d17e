package fsil.methods.ncmforest;

import fsil.api.Background;
import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * NCM forest test time per sample per tree (the paper reports 0.47 ms per tree per image on ILSVRC10) on synthetic
 * Gaussian classes (default 1,000 classes in d = 1,000, 20 training samples per class, a forest of 5 trees, 1,000
 * test samples, one thread): the forest's prediction ({@code forestPerTree}: blocks of queries routed through each
 * tree together, with the float nearest-centroid filter), the same prediction with every query walking down alone
 * ({@code forestPerTreeOneQueryAtATime}, the earlier method, same posteriors), and plain nearest-class-mean scoring
 * of the same samples (all class means, the same distance kernel). Training the forest is part of the setup (about
 * 15 s at the default size), which prints the tree sizes, the forest's comparisons per sample and the exact
 * distances the filter needed, and checks that both forest paths give the same posteriors. Scores are us per sample
 * for the NCM reference and us per sample per tree for the forest.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class NcmForestTestTimeBench {
    static final int TREES = 5;
    static final int TEST = 1000;

    @Param("1000")
    public int classes;
    @Param("1000")
    public int dim;
    @Param("20")
    public int perClass;

    private Session forest;
    private int[] treeOrder;
    private FeatureMatrix queries;
    private float[] means;
    private int[] ncmLabels;

    @Setup
    public void setup() {
        SyntheticClasses gen = new SyntheticClasses(dim, 64, 1.0, 1.0, 1);
        int[] all = IncrementalTrainingBenchmark.classIds(classes);
        LabeledData train = gen.sample(all, perClass, 0);
        LabeledData test = gen.sample(all, (TEST + classes - 1) / classes, 1);
        int[] rows = new int[TEST];
        for (int i = 0; i < TEST; i++) {
            rows[i] = (int) ((long) i * test.size() / TEST); // spread over the classes
        }
        test = test.select(rows);
        queries = test.features();
        NcmForestMethod m = new NcmForestMethod();
        forest = m.learner(m.params(Map.of("trees", Integer.toString(TREES))), Background.none(dim))
                .newSession(SessionContext.incremental(dim, 1));
        forest.learn(train);
        means = NearestClassMean.classMeans(train, classes, dim);
        ncmLabels = new int[TEST];
        Prediction p = forest.predict(queries);
        Map<String, Double> diag = forest.diagnostics();
        long exact = ((NcmForestSession) forest).lastExactDistances;
        treeOrder = new int[TREES];
        for (int t = 0; t < TREES; t++) {
            treeOrder[t] = t;
        }
        if (!java.util.Arrays.equals(forestPerTree().rawProbabilities(), forestPerTreeOneQueryAtATime())) {
            throw new IllegalStateException("grouped and one-query-at-a-time predictions differ");
        }
        NearestClassMean.predict(queries, means, classes, ncmLabels);
        System.out.printf("# %d trees: leaf depth mean %.1f, max %.0f; %.0f leaves per tree; %.1f centroid comparisons"
                        + " per sample per tree (NCM: %d), of which %.2f exact after the float filter; accuracy"
                        + " forest %.3f, NCM %.3f%n", TREES,
                diag.get("leaf_depth_mean"), diag.get("leaf_depth_max"), diag.get("leaves_per_tree"),
                diag.get("test_cost"), classes, exact / (double) (TEST * TREES),
                IncrementalComparison.accuracy(p, test.labels()), NearestClassMean.accuracy(ncmLabels, test.labels()));
    }

    /** The forest's prediction of all test samples; the score is per sample and per tree. */
    @Benchmark
    @OperationsPerInvocation(TEST * TREES)
    public Prediction forestPerTree() {
        return forest.predict(queries);
    }

    /** The same prediction with every query walking down each tree alone (the earlier method); per sample and tree. */
    @Benchmark
    @OperationsPerInvocation(TEST * TREES)
    public double[] forestPerTreeOneQueryAtATime() {
        return ((NcmForestSession) forest).posteriors(queries, treeOrder, false);
    }

    /** Reference: the nearest of all class means for every test sample; the score is per sample. */
    @Benchmark
    @OperationsPerInvocation(TEST)
    public int[] nearestClassMeanReference() {
        NearestClassMean.predict(queries, means, classes, ncmLabels);
        return ncmLabels;
    }
}
