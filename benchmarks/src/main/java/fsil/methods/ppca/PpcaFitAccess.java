package fsil.methods.ppca;

import fsil.api.LabeledData;
import fsil.api.SessionContext;

import java.util.Map;

/**
 * What {@code fsil.bench.ppca.PpcaFitCpuTiming} needs of ppca's package-private classes: the power-law classes of
 * {@link PpcaFitBench} and one fit of them. It sits in the method's package for that access and, like the method,
 * uses only the api and core (the architecture test holds it to that); the files are read and written by the caller.
 */
public final class PpcaFitAccess {
    private PpcaFitAccess() {
    }

    /** The result of one fit: the first class's largest eigenvalues and the session's Krylov diagnostic. */
    public record Fitted(double[] firstClassVariances, Object krylovDimMean) {
    }

    /** The PpcaFitBench model: 64 power-law directions per class, noise 0.05. */
    public static LabeledData powerLawClasses(int classes, int perClass, int dim, double alpha, long seed) {
        return ScaleBenchmark.Model.POWER_LAW.build(dim, 64, 1.0, 0.05, alpha, 1.0, seed).classes(0, classes, perClass,
                0);
    }

    /** One session learning all classes on the calling thread (the session runs its class fits on it). */
    public static Fitted fit(Map<String, String> params, LabeledData data) {
        PpcaSession s = BenchSupport.session(params, data.dimension(), 1, SessionContext.DIRECT);
        s.learn(data);
        return new Fitted(s.model(s.classes()[0]).variances, s.diagnostics().get("krylov_dim_mean"));
    }
}
