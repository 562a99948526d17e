package com.example.fsil;

import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.api.Prediction;
import fsil.api.Session;

import java.util.Map;
import java.util.TreeMap;

/**
 * The state of one task unit: per-class sums and counts of the (preprocessed) features, so that learning more
 * classes later (an incremental step) is exact. The contract the conformance kit checks: never write into the
 * inputs, reject NaN/Inf features with {@link fsil.api.InvalidDataException} (what {@code requireFinite} throws),
 * return probabilities over every class learned so far, the same numbers for the same seed, and, for an inductive
 * method, a prediction of each query that does not depend on the other queries.
 */
final class ShrunkenCentroidSession implements Session {
    private final double shrink;
    private final double temperature;
    private final boolean cl2n;
    private final double[] center;
    private final TreeMap<Integer, double[]> sums = new TreeMap<>();
    private final TreeMap<Integer, Integer> counts = new TreeMap<>();

    ShrunkenCentroidSession(double shrink, double temperature, boolean cl2n, double[] center) {
        this.shrink = shrink;
        this.temperature = temperature;
        this.cl2n = cl2n;
        this.center = center;
    }

    /** Row i of x after the preprocessing, into dst. */
    private void prepare(FeatureMatrix x, int i, double[] dst) {
        x.copyRow(i, dst);
        if (!cl2n) {
            return;
        }
        double norm = 0;
        for (int j = 0; j < dst.length; j++) {
            if (center != null) {
                dst[j] -= center[j];
            }
            norm += dst[j] * dst[j];
        }
        norm = Math.sqrt(norm);
        if (norm > 0) {
            for (int j = 0; j < dst.length; j++) {
                dst[j] /= norm;
            }
        }
    }

    @Override
    public void learn(LabeledData data) {
        data.requireFinite("shrunken-centroid training features");
        double[] row = new double[data.dimension()];
        for (int i = 0; i < data.size(); i++) {
            prepare(data.features(), i, row);
            double[] s = sums.computeIfAbsent(data.labels()[i], k -> new double[row.length]);
            for (int j = 0; j < row.length; j++) {
                s[j] += row[j];
            }
            counts.merge(data.labels()[i], 1, Integer::sum);
        }
    }

    @Override
    public Prediction predict(FeatureMatrix queries) {
        if (sums.isEmpty()) {
            throw new FsilException("shrunken-centroid: predict() before any learn()");
        }
        queries.requireFinite("shrunken-centroid query features");
        int k = sums.size();
        int d = queries.cols();
        int[] classes = sums.keySet().stream().mapToInt(Integer::intValue).toArray();  // sorted: a TreeMap
        double[][] c = new double[k][];
        double[] grand = new double[d];
        for (int a = 0; a < k; a++) {
            c[a] = sums.get(classes[a]).clone();
            int n = counts.get(classes[a]);
            for (int j = 0; j < d; j++) {
                c[a][j] /= n;
                grand[j] += c[a][j] / k;
            }
        }
        for (double[] ca : c) {
            for (int j = 0; j < d; j++) {
                ca[j] = (1 - shrink) * ca[j] + shrink * grand[j];
            }
        }
        double[] p = new double[queries.rows() * k];
        double[] x = new double[d];
        double[] logit = new double[k];
        for (int i = 0; i < queries.rows(); i++) {
            prepare(queries, i, x);
            double max = Double.NEGATIVE_INFINITY;
            for (int a = 0; a < k; a++) {
                double dist = 0;
                for (int j = 0; j < d; j++) {
                    double t = x[j] - c[a][j];
                    dist += t * t;
                }
                logit[a] = -dist / temperature;
                max = Math.max(max, logit[a]);
            }
            double z = 0;
            for (int a = 0; a < k; a++) {
                logit[a] = Math.exp(logit[a] - max);
                z += logit[a];
            }
            for (int a = 0; a < k; a++) {
                p[i * k + a] = logit[a] / z;
            }
        }
        return Prediction.of(classes, p);
    }

    /** The model state in bytes (the reports show it; the kit's few-shot checks want a value, not -1). */
    @Override
    public long memoryBytes() {
        int d = sums.isEmpty() ? 0 : sums.firstEntry().getValue().length;
        return sums.size() * (8L * d + 8L) + (center == null ? 0 : 8L * center.length);
    }

    /** Numbers about the last learn/predict, written to each result row (keys in lower_snake_case). */
    @Override
    public Map<String, Double> diagnostics() {
        return Map.of("classes", (double) sums.size());
    }
}
