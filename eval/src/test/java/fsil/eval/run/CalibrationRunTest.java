package fsil.eval.run;

import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Params;
import fsil.api.Prediction;
import fsil.api.Registry;
import fsil.api.Session;
import fsil.data.FeatureSet;
import fsil.data.SplitSet;
import fsil.eval.report.Report;
import fsil.eval.report.Summary;
import fsil.eval.store.UnitRecord;
import fsil.eval.testing.TestPlugins;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Calibration on data with a known Bayes posterior: Gaussian classes N(mu_c, I) with uniform priors within an episode
 * (balanced queries), where softmax(-|x - mu_c|^2 / 2) over the episode's classes is the exact posterior. A method
 * that outputs it is calibrated; the same method with its logits times 3 is over-confident, and temperature scaling
 * fitted on the validation classes finds T = 3, i.e. inverse temperature 1/3, which undoes it.
 */
class CalibrationRunTest {
    static final int CLASSES = 15;
    static final int DIM = 4;
    static final int PER_CLASS = 300;
    static final double[][] MEANS = means();

    static double[][] means() {
        SplittableRandom r = new SplittableRandom(3);
        double[][] m = new double[CLASSES][DIM];
        for (double[] row : m) {
            for (int j = 0; j < DIM; j++) {
                row[j] = 1.2 * r.nextGaussian();
            }
        }
        return m;
    }

    static FeatureSet data() {
        SplittableRandom r = new SplittableRandom(17);
        LabeledData train = sample(r);
        LabeledData test = sample(r);
        List<String> names = new ArrayList<>();
        for (int c = 0; c < CLASSES; c++) {
            names.add("g" + c);
        }
        return new FeatureSet("gauss", "identity", "gauss-17", new ClassTable(names, List.of()), train, test,
                new SplitSet(new int[]{0, 1, 2, 3, 4}, new int[]{5, 6, 7, 8, 9}, new int[]{10, 11, 12, 13, 14},
                        Optional.empty()));
    }

    static LabeledData sample(SplittableRandom r) {
        float[] x = new float[CLASSES * PER_CLASS * DIM];
        int[] y = new int[CLASSES * PER_CLASS];
        for (int i = 0; i < y.length; i++) {
            y[i] = i % CLASSES;
            for (int j = 0; j < DIM; j++) {
                x[i * DIM + j] = (float) (MEANS[y[i]][j] + r.nextGaussian());
            }
        }
        return new LabeledData(FeatureMatrix.wrap(y.length, DIM, x), y);
    }

    /** Log-posterior weights -|x - mu_c|^2 / 2 of one point over the given classes, times {@code scale}, as probabilities. */
    static double[] posterior(double[] x, int[] classes, double scale) {
        double[] p = new double[classes.length];
        double max = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < classes.length; k++) {
            double d = 0;
            for (int j = 0; j < DIM; j++) {
                double t = x[j] - MEANS[classes[k]][j];
                d += t * t;
            }
            p[k] = -scale * d / 2;
            max = Math.max(max, p[k]);
        }
        double z = 0;
        for (int k = 0; k < p.length; k++) {
            p[k] = Math.exp(p[k] - max);
            z += p[k];
        }
        for (int k = 0; k < p.length; k++) {
            p[k] /= z;
        }
        return p;
    }

    /** The exact posterior of the episode's classes (it knows the class means), its logits times {@code scale}. */
    static final class Bayes implements Method {
        static final Param<Double> SCALE = Param.real("scale", 1.0, 1e-3, 1e3, "multiplies the log-posterior");

        public String id() {
            return "bayes";
        }

        public String description() {
            return "test method: the true posterior of Gaussian classes";
        }

        public Set<Capability> capabilities() {
            return EnumSet.of(Capability.INDUCTIVE_FEWSHOT, Capability.CLASS_INCREMENTAL);
        }

        public List<Param<?>> parameters() {
            return List.of(SCALE);
        }

        public Learner learner(Params params, Background background) {
            double scale = params.get(SCALE);
            return ctx -> new Session() {
                int[] classes = new int[0];

                public void learn(LabeledData data) {
                    classes = Arrays.stream(Arrays.copyOf(classes, classes.length + data.classes().length))
                            .toArray();
                    System.arraycopy(data.classes(), 0, classes, classes.length - data.classes().length,
                            data.classes().length);
                    classes = Arrays.stream(classes).distinct().sorted().toArray();
                }

                public Prediction predict(FeatureMatrix q) {
                    double[] p = new double[q.rows() * classes.length];
                    double[] x = new double[DIM];
                    for (int i = 0; i < q.rows(); i++) {
                        for (int j = 0; j < DIM; j++) {
                            x[j] = q.get(i, j);
                        }
                        System.arraycopy(posterior(x, classes, scale), 0, p, i * classes.length, classes.length);
                    }
                    return Prediction.of(classes, p);
                }
            };
        }
    }

    static Runner runner() {
        FeatureSet fs = data();
        return new Runner(new Registry<>("method", Method::id).register(new Bayes()), TestPlugins.protocols(),
                TestPlugins.metrics(), (name, backbone, seed, cache) -> fs, Path.of("target", "test-cache"));
    }

    static RunSpec spec(String calibrate) {
        return new RunSpec(VariantSpec.parseList("bayes,x3:bayes[scale=3]"), List.of("gauss"), "identity", "fewshot",
                Map.of("episodes", List.of("300"), "queries", List.of("75"), "ways", List.of("5"), "shots",
                        List.of("1")), 1993, 0, 1, 2, Map.of(), null, calibrate);
    }

    /** The population NLL of the Bayes posterior over the novel classes and the std of one prediction's NLL (MC). */
    static double[] bayesNll() {
        SplittableRandom r = new SplittableRandom(99);
        int[] novel = {10, 11, 12, 13, 14};
        int n = 400_000;
        double sum = 0;
        double sq = 0;
        double[] x = new double[DIM];
        for (int i = 0; i < n; i++) {
            int y = novel[r.nextInt(5)];
            for (int j = 0; j < DIM; j++) {
                x[j] = MEANS[y][j] + r.nextGaussian();
            }
            double l = -Math.log(posterior(x, novel, 1)[y - 10]);
            sum += l;
            sq += l * l;
        }
        double mean = sum / n;
        return new double[]{mean, Math.sqrt(sq / n - mean * mean)};
    }

    static double value(Table s, String method, String metric) {
        Table t = s.where(s.stringColumn("method").isEqualTo(method).and(s.stringColumn("metric").isEqualTo(metric))
                .and(s.intColumn("step").isMissing()));
        assertEquals(1, t.rowCount(), method + " " + metric);
        return t.doubleColumn("value").get(0);
    }

    @Test
    void theTruePosteriorIsCalibratedAndTemperatureScalingUndoesLogitsTimesThree(@TempDir Path tmp)
            throws IOException {
        Path dir = tmp.resolve("run");
        Runner.Outcome o = runner().run(spec("temperature"), dir);
        assertEquals(0, o.failedTasks());
        Table s = Summary.summarize(o.records(), TestPlugins.metrics().all());
        double[] bayes = bayesNll();
        // queries come from the 2 x 300 samples of each of the 5 novel classes: the sampling error of the pool
        double tolerance = 4 * bayes[1] / Math.sqrt(5 * 2 * PER_CLASS);
        assertEquals(bayes[0], value(s, "bayes", "nll"), tolerance, "the true posterior has the Bayes NLL");
        assertTrue(value(s, "bayes", "ece") < 0.02, "calibrated: ECE " + value(s, "bayes", "ece"));
        assertTrue(value(s, "bayes", "adaptive_ece") < 0.02, "adaptive ECE " + value(s, "bayes", "adaptive_ece"));
        assertTrue(value(s, "x3", "ece") > 3 * value(s, "bayes", "ece") && value(s, "x3", "ece") > 0.05,
                "logits x 3 are over-confident: ECE " + value(s, "x3", "ece"));
        assertTrue(value(s, "x3", "nll") > bayes[0] + 0.1, "and pay for it in NLL");

        Table t = Table.read().csv(dir.resolve(Calibration.TABLE).toFile());
        double tBayes = t.where(t.stringColumn("method").isEqualTo("bayes")).doubleColumn("temperature").get(0);
        double tX3 = t.where(t.stringColumn("method").isEqualTo("x3")).doubleColumn("temperature").get(0);
        assertEquals(1.0, tBayes, 0.05, "nothing to correct");
        assertEquals(1.0 / 3, 1 / tX3, 0.02, "inverse temperature 1/3 undoes logits x 3 (T = " + tX3 + ")");
        assertTrue(t.stringColumn("fit_data").asList().stream().allMatch("validation"::equals));
        // after scaling, x3 is as good as the true posterior
        assertEquals(bayes[0], value(s, "x3", "nll_ts"), tolerance, "scaled x3 reaches the Bayes NLL");
        assertTrue(value(s, "x3", "ece_ts") < 0.02, "scaled x3 is calibrated: ECE " + value(s, "x3", "ece_ts"));
        String config = Files.readString(dir.resolve(Runner.CONFIG));
        assertTrue(config.contains("\"fit_data\" : \"tasks of the same settings on the validation classes\""), config);
        RunnerTest.assertRebuildsIdentically(dir);
        Table fitSummary = Table.read().csv(dir.resolve(Calibration.DIR).resolve(Report.SUMMARY).toFile());
        assertTrue(fitSummary.stringColumn("classes_from").asList().stream().allMatch("validation"::equals),
                "the fit never drew an evaluation class");

        // accuracy and every label-based number is unchanged by construction
        Path plain = tmp.resolve("plain");
        Runner.Outcome p = runner().run(spec("none"), plain);
        for (int i = 0; i < p.records().size(); i++) {
            UnitRecord a = o.records().stream().filter(r -> r.key().equals(p.records().get(0).key())).findFirst()
                    .orElseThrow();
            UnitRecord b = p.records().get(0);
            assertEquals(b.value("episode_acc"), a.value("episode_acc"));
            assertEquals(b.value("calibration"), a.value("calibration"), "raw metrics are the raw run's");
        }
        Table ps = Summary.summarize(p.records(), TestPlugins.metrics().all());
        for (String m : List.of("bayes", "x3")) {
            assertEquals(value(ps, m, "episode_acc"), value(s, m, "episode_acc"), 0);
            assertEquals(value(ps, m, "ece"), value(s, m, "ece"), 0);
        }
    }

    /**
     * Temperatures fitted on fewer than {@value Calibration#MIN_FIT_CLASSES} held-out classes get a one-line warning
     * (5 validation classes here); a fit on the held-out samples of all 15 classes does not.
     */
    @Test
    void aFitOnFewHeldOutClassesWarns(@TempDir Path tmp) {
        RunSpec few = new RunSpec(VariantSpec.parseList("bayes"), List.of("gauss"), "identity", "fewshot",
                Map.of("episodes", List.of("20"), "ways", List.of("5"), "shots", List.of("1")), 1993, 0, 1, 2,
                Map.of(), null, "temperature");
        Runner.Outcome o = runner().run(few, tmp.resolve("few"));
        List<String> warnings = o.notes().stream().filter(n -> n.startsWith("warning: temperatures")).toList();
        assertEquals(1, warnings.size(), o.notes().toString());
        assertTrue(warnings.get(0).startsWith("warning: temperatures fitted on 5 held-out classes (validation classes "
                + "of gauss)"), warnings.get(0));
        assertFalse(warnings.get(0).contains("\n"));
        RunSpec cil = new RunSpec(VariantSpec.parseList("bayes"), List.of("gauss"), "identity", "cil",
                Map.of("steps", List.of("2"), "runs", List.of("2")), 1993, 0, 1, 2, Map.of(), null, "temperature");
        Runner.Outcome all = runner().run(cil, tmp.resolve("cil"));
        assertEquals(List.of(), all.notes());
    }

    @Test
    void incrementalRunsFitOnHeldOutTrainingSamples(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("cil");
        RunSpec spec = new RunSpec(VariantSpec.parseList("x3:bayes[scale=3]"), List.of("gauss"), "identity", "cil",
                Map.of("steps", List.of("2"), "runs", List.of("8")), 1993, 0, 1, 2, Map.of(), null, "temperature");
        Runner.Outcome o = runner().run(spec, dir);
        assertEquals(0, o.failedTasks());
        Table t = Table.read().csv(dir.resolve(Calibration.TABLE).toFile());
        assertEquals("held_out", t.stringColumn("fit_data").get(0));
        FeatureSet held = Calibration.heldOut(data(), 1993);
        // every run ends predicting the same 900 held-out samples over all 15 classes: the fit is the exact
        // temperature of those predictions, and within their sampling error of 3
        int[] all = java.util.stream.IntStream.range(0, CLASSES).toArray();
        double[] probs = new double[held.test().size() * CLASSES];
        double[] x = new double[DIM];
        for (int i = 0; i < held.test().size(); i++) {
            for (int j = 0; j < DIM; j++) {
                x[j] = held.test().features().get(i, j);
            }
            System.arraycopy(posterior(x, all, 3), 0, probs, i * CLASSES, CLASSES);
        }
        double exact = fsil.core.calibration.TemperatureScaling.fit(probs, held.test().labels(), CLASSES).temperature();
        assertEquals(exact, t.doubleColumn("temperature").get(0), 2e-3 * exact);
        assertEquals(1.0 / 3, 1 / exact, 0.05, "T = " + exact);
        assertEquals(CLASSES * PER_CLASS, held.train().size() + held.test().size(), "the training samples, split");
        assertEquals(CLASSES * 60, held.test().size(), "20% of each class");
        // held-out rows are training rows: none of the test data
        Set<String> testRows = new java.util.HashSet<>();
        LabeledData test = data().test();
        for (int i = 0; i < test.size(); i++) {
            testRows.add(Arrays.toString(test.features().row(i)));
        }
        for (int i = 0; i < held.test().size(); i++) {
            assertTrue(!testRows.contains(Arrays.toString(held.test().features().row(i))));
        }
    }

    /** Without validation classes the fit draws the base classes, which a method that needs them as background lacks. */
    @Test
    void aMethodThatNeedsBaseClassesCannotBeCalibratedOnThem(@TempDir Path tmp) {
        Method needy = new fsil.eval.testing.ToyNearestMeanMethod("needy", EnumSet.of(Capability.INDUCTIVE_FEWSHOT)) {
            @Override
            public boolean needsBaseClasses(Params params) {
                return true;
            }
        };
        Runner r = new Runner(new Registry<>("method", Method::id).register(needy), TestPlugins.protocols(),
                TestPlugins.metrics(), (name, backbone, seed, cache) -> RunnerTest.TOY, Path.of("target", "test-cache"));
        RunSpec spec = new RunSpec(VariantSpec.parseList("needy"), List.of("toy"), "identity", "fewshot",
                Map.of("episodes", List.of("4")), 1993, 0, 1, 1, Map.of(), null, "temperature");
        fsil.api.FsilException e = org.junit.jupiter.api.Assertions.assertThrows(fsil.api.FsilException.class,
                () -> r.run(spec, tmp.resolve("run")));
        assertTrue(e.getMessage().contains("fits on the base classes") && e.getMessage().contains("needy"),
                e.getMessage());
        assertTrue(!Files.exists(tmp.resolve("run")), "nothing written");
    }
}
