package fsil.eval.protocol;

import fsil.api.Episode;
import fsil.api.Experience;
import fsil.api.ExperienceStream;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Drives a method through one task, the one path every protocol and every method takes: a session per task
 * (from {@link SessionContext#of}), {@link Session#learn} and {@link Session#predict} in the order the task
 * defines, and the scoring of the predictions.
 * <ul>
 *   <li>An episode: learn the support set, predict the queries; the episode's accuracy and calibration bins.</li>
 *   <li>A stream: learn experience t, then predict the test data of every class seen so far; a_t (micro over
 *   samples), the accuracy matrix A[t][k] and, when asked, the accuracy of the same method retrained from scratch
 *   on all training data seen so far (one learn() call in a fresh session).</li>
 * </ul>
 */
public final class TaskRunner {

    // Episodes have no incremental steps; empty arrays are shared (a row per unit is kept for the summaries).
    private static final double[] NONE = new double[0];
    private static final double[][] NO_ROWS = new double[0][];
    private static final int[] NO_CLASSES = new int[0];

    private TaskRunner() {
    }

    /** Runs a task in a fresh session seeded with {@code seed}. */
    public static TaskOutcome run(LabeledTask task, Learner learner, long seed, Executor executor) {
        if (task instanceof LabeledTask.Episodic e) {
            return episode(e.task(), e.queryLabels(), learner, seed, executor);
        }
        LabeledTask.Incremental s = (LabeledTask.Incremental) task;
        return stream(s.task(), s.test(), s.retrainEvery(), learner, seed, executor);
    }

    private static TaskOutcome episode(Episode episode, int[] truth, Learner learner, long seed, Executor executor) {
        Session session = learner.newSession(SessionContext.of(episode, seed, executor));
        long t0 = System.nanoTime();
        session.learn(episode.support());
        long t1 = System.nanoTime();
        Prediction p = session.predict(episode.queries());
        long t2 = System.nanoTime();
        Evaluation.Score score = Evaluation.score(p, truth);
        Map<String, Double> diag = session.diagnostics();
        Map<String, Double> extra = diag.isEmpty() ? Map.of() : new LinkedHashMap<>(diag);
        return new TaskOutcome(true, score.accuracy(), score.correct(), p, truth, NONE, NO_ROWS, NO_CLASSES, NONE,
                (t1 - t0) * 1e-9, (t2 - t1) * 1e-9, session.memoryBytes(), extra);
    }

    private static TaskOutcome stream(ExperienceStream stream, LabeledData test, int retrainEvery, Learner learner,
                                     long trainSeed, Executor executor) {
        List<Experience> steps = stream.experiences();
        int nSteps = steps.size();
        ClassIndex testIndex = new ClassIndex(test);
        Session session = learner.newSession(SessionContext.of(stream, trainSeed, executor));
        double[] seenAcc = new double[nSteps];
        double[][] a = new double[nSteps][];
        int[] classesSeen = new int[nSteps];
        double[] relative = new double[nSteps];
        Arrays.fill(relative, Double.NaN);
        double fit = 0;
        double predict = 0;
        double retrainFit = 0;
        double[] stepFit = new double[nSteps];
        int[] stepOfClass = new int[maxClass(steps) + 1];
        Arrays.fill(stepOfClass, -1);
        int seen = 0;
        Prediction lastPrediction = null;
        int[] lastTruth = null;
        int lastCorrect = 0;
        Map<String, Double> extra = new LinkedHashMap<>();
        for (int t = 0; t < nSteps; t++) {
            Experience st = steps.get(t);
            for (int c : st.newClasses()) {
                stepOfClass[c] = t;
            }
            seen += st.newClasses().length;
            classesSeen[t] = seen;
            long t0 = System.nanoTime();
            session.learn(st.train());
            long t1 = System.nanoTime();
            stepFit[t] = (t1 - t0) * 1e-9;
            fit += stepFit[t];
            int[] seenClasses = seenClasses(stepOfClass);
            int[] rows = testIndex.rowsOf(seenClasses);
            LabeledData tst = test.select(rows);
            long t2 = System.nanoTime();
            Prediction p = session.predict(tst.features());
            long t3 = System.nanoTime();
            predict += (t3 - t2) * 1e-9;
            int[] truth = tst.labels();
            Evaluation.Score score = Evaluation.score(p, truth);
            seenAcc[t] = score.accuracy();
            a[t] = new double[t + 1];
            int[] labels = score.predicted();
            int[] correct = new int[t + 1];
            int[] total = new int[t + 1];
            for (int i = 0; i < truth.length; i++) {
                int k = stepOfClass[truth[i]];
                total[k]++;
                if (labels[i] == truth[i]) {
                    correct[k]++;
                }
            }
            for (int k = 0; k <= t; k++) {
                a[t][k] = total[k] == 0 ? Double.NaN : correct[k] / (double) total[k];
            }
            if (t == nSteps - 1) {
                lastPrediction = p;
                lastTruth = truth;
                lastCorrect = score.correct();
            }
            if (retrainEvery > 0 && (t % retrainEvery == retrainEvery - 1 || t == nSteps - 1)) {
                LabeledData all = concat(steps.subList(0, t + 1));
                Session fresh = learner.newSession(SessionContext.of(stream, trainSeed, executor));
                long r0 = System.nanoTime();
                fresh.learn(all);
                long r1 = System.nanoTime();
                retrainFit += (r1 - r0) * 1e-9;
                double retrained = Evaluation.accuracy(fresh.predict(tst.features()), truth);
                relative[t] = retrained > 0 ? seenAcc[t] / retrained : Double.NaN;
                extra.put("retrain_acc_step" + t, retrained);
                extra.put("retrain_fit_s_step" + t, (r1 - r0) * 1e-9);
            }
        }
        for (int t = 0; t < nSteps; t++) {
            extra.put("fit_s_step" + t, stepFit[t]);
        }
        if (retrainEvery > 0) {
            extra.put("retrain_fit_s", retrainFit);
        }
        extra.putAll(session.diagnostics());
        return new TaskOutcome(false, seenAcc[nSteps - 1], lastCorrect, lastPrediction, lastTruth, seenAcc, a, classesSeen, relative,
                fit, predict, session.memoryBytes(), extra);
    }

    private static int maxClass(List<Experience> steps) {
        int m = 0;
        for (Experience s : steps) {
            for (int c : s.newClasses()) {
                m = Math.max(m, c);
            }
        }
        return m;
    }

    private static int[] seenClasses(int[] stepOfClass) {
        int n = 0;
        for (int s : stepOfClass) {
            if (s >= 0) {
                n++;
            }
        }
        int[] out = new int[n];
        int at = 0;
        for (int c = 0; c < stepOfClass.length; c++) {
            if (stepOfClass[c] >= 0) {
                out[at++] = c;
            }
        }
        return out;
    }

    static LabeledData concat(List<Experience> steps) {
        return LabeledData.concat(steps.stream().map(Experience::train).toList());
    }
}
