package com.example.fsil;

import fsil.api.AbstractMethod;
import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.FeatureMatrix;
import fsil.api.Learner;
import fsil.api.Param;
import fsil.api.Params;

import java.util.EnumSet;
import java.util.List;

/**
 * Nearest shrunken centroid: a nearest-class-mean classifier whose class means are pulled towards the mean of all
 * class means by a factor {@code shrink} (a one-parameter form of Tibshirani et al.'s shrunken centroids), with
 * class probabilities {@code softmax(-||x - c_k||^2 / temperature)}.
 *
 * <p>What a method declares, once, in its constructor ({@link AbstractMethod}): a stable id, a description, the
 * paper it comes from, its capabilities (which protocols it can take part in) and typed parameters with defaults and
 * documentation; fsil validates every value before anything runs and lists the parameters in {@code fsil methods}.
 * The public no-argument constructor is what {@link java.util.ServiceLoader} calls. (Implementing
 * {@link fsil.api.Method} directly, with a getter for each of these, works too.) {@link #learner} is called once
 * per parameter setting and dataset; the {@link Learner} it returns creates one {@link ShrunkenCentroidSession} per
 * task unit (an episode, an incremental run).
 */
public final class ShrunkenCentroid extends AbstractMethod {

    /** The choices of an option parameter are an enum; on the command line {@code CL2N} is written {@code cl2n}. */
    public enum Preprocess {
        /** The features as given. */
        NONE,
        /** Centre on the base-class mean (when there are base classes), then scale to unit length. */
        CL2N
    }

    public static final Param<Double> SHRINK = Param.real("shrink", 0.2, 0.0, 0.95,
            "pulls each class mean towards the mean of all class means (0 = plain nearest class mean)");
    public static final Param<Double> TEMPERATURE = Param.real("temperature", 1.0, 1e-6, 1e6,
            "softmax temperature on negative squared distances (calibration only: the most probable class is the same)");
    public static final Param<Preprocess> PREPROCESS = Param.option("preprocess", Preprocess.NONE,
            "none: the features as given; cl2n: centre on the base-class mean (if the protocol gives base classes), "
                    + "then L2-normalise");

    /** Id, description, reference, capabilities and parameters, in the order {@code fsil methods} lists them. */
    public ShrunkenCentroid() {
        super("shrunken-centroid",
                "nearest shrunken centroid with a softmax (the fsil plugin template's example method)",
                "after Tibshirani, Hastie, Narasimhan, Chu, PNAS 2002",
                // Per-class sums make incremental learning exact, and each query is classified on its own (inductive).
                EnumSet.of(Capability.INDUCTIVE_FEWSHOT, Capability.CLASS_INCREMENTAL,
                        Capability.FEWSHOT_CLASS_INCREMENTAL),
                List.of(SHRINK, TEMPERATURE, PREPROCESS));
    }

    /**
     * The background holds the base classes' features when the protocol has base classes disjoint from its own
     * (few-shot episodes from the novel classes, by default). Otherwise it is empty ({@link Background#isEmpty()}:
     * zero rows of the right dimension): a dataset without a base split, or a protocol whose classes include the
     * base classes (cil, ncmf, gp-classes and fscil by default). A method must work in both cases: here CL2N then
     * only normalises.
     */
    @Override
    public Learner learner(Params params, Background background) {
        double shrink = params.get(SHRINK);
        double temperature = params.get(TEMPERATURE);
        boolean cl2n = params.get(PREPROCESS) == Preprocess.CL2N;
        double[] center = cl2n && !background.isEmpty() ? columnMeans(background.base().features()) : null;
        // The learner is shared by all units (possibly on several threads): it keeps only immutable values.
        return context -> new ShrunkenCentroidSession(shrink, temperature, cl2n, center);
    }

    static double[] columnMeans(FeatureMatrix x) {
        double[] mean = new double[x.cols()];
        double[] row = new double[x.cols()];
        for (int i = 0; i < x.rows(); i++) {
            x.copyRow(i, row);
            for (int j = 0; j < row.length; j++) {
                mean[j] += row[j];
            }
        }
        for (int j = 0; j < mean.length; j++) {
            mean[j] /= x.rows();
        }
        return mean;
    }
}
