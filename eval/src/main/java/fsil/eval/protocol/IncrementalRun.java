package fsil.eval.protocol;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.api.TaskKind;
import fsil.eval.metrics.CalibrationBins;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Runs one incremental stream: learn step t's training data, then predict the test data of every class seen so
 * far; fills a_t (micro over samples), the accuracy matrix A[t][k] and, optionally, the accuracy of the same
 * method retrained from scratch on all training data seen so far (one learn() call in a fresh session).
 */
final class IncrementalRun {

    /** One step: its new classes and their training rows. */
    record Step(int[] newClasses, LabeledData train) {
    }

    private IncrementalRun() {
    }

    /**
     * @param steps        the stream
     * @param test         test data of all classes (rows of unseen classes are ignored)
     * @param retrainEvery 0 = never retrain; m &gt; 0 = retrain from scratch after every m-th step and the last
     */
    static UnitResult run(List<Step> steps, LabeledData test, TaskKind kind, Learner learner, long trainSeed,
                          Executor executor, int retrainEvery) {
        int d = test.dimension();
        int nSteps = steps.size();
        ClassIndex testIndex = new ClassIndex(test);
        Session session = learner.newSession(new SessionContext(kind, d, false, trainSeed, executor));
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
        CalibrationBins lastBins = null;
        int lastEvaluated = 0;
        Map<String, Double> extra = new LinkedHashMap<>();
        for (int t = 0; t < nSteps; t++) {
            Step st = steps.get(t);
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
                lastBins = score.bins();
                lastEvaluated = truth.length;
            }
            if (retrainEvery > 0 && (t % retrainEvery == retrainEvery - 1 || t == nSteps - 1)) {
                LabeledData all = concat(steps.subList(0, t + 1));
                Session fresh = learner.newSession(new SessionContext(kind, d, false, trainSeed, executor));
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
        return new UnitResult(seenAcc[nSteps - 1], lastEvaluated, seenAcc, a, classesSeen, relative, lastBins, fit,
                predict, session.memoryBytes(), extra);
    }

    private static int maxClass(List<Step> steps) {
        int m = 0;
        for (Step s : steps) {
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

    static LabeledData concat(List<Step> steps) {
        return LabeledData.concat(steps.stream().map(Step::train).toList());
    }

    /** Training rows of the given classes, class by class. */
    static LabeledData trainOf(LabeledData train, ClassIndex index, int[] classes) {
        return train.select(index.rowsOf(classes));
    }
}
