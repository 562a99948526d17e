package fsil.data;

import fsil.api.Params;
import fsil.api.Plugin;

import java.nio.file.Path;

/**
 * A backbone plugin: what turns a dataset's raw inputs (pixels, or a user's features) into the features every
 * protocol works on. Written {@code id[key=value,...]} on the command line ({@code --backbone}) and in run files,
 * listed by {@code fsil backbones}. Register an implementation (public, with an {@code @Inject} or a public
 * no-argument constructor) in {@code META-INF/services/fsil.data.Backbone}.
 *
 * <p>The contract, for a backbone that learns:
 * <ul>
 *   <li><b>Train on base classes only</b> ({@code raw.splits().base()}, training samples), never on the classes a
 *       protocol evaluates; refuse a dataset without base classes with a one-line {@link fsil.api.FsilException}.</li>
 *   <li><b>Embed</b> every sample, train and test, of every class with the frozen network.</li>
 *   <li><b>Cache</b> the features under {@code cacheDir} by (dataset content, {@link #describe(Params)}, seed),
 *       written atomically, so that a second run (or process) with the same key reuses them.</li>
 *   <li><b>Report progress</b> while training, every few seconds within an epoch, through a
 *       {@link fsil.core.progress.TrainingLog} on the {@link fsil.api.ProgressSink} the application injects (an
 *       {@code @Inject} constructor; a run shows those lines in its display).</li>
 *   <li><b>Determinism</b>: the same raw data, parameters and seed give the same features.</li>
 * </ul>
 */
public interface Backbone extends Plugin {

    @Override
    default String kind() {
        return "backbone";
    }

    /**
     * The canonical text of a configuration; it enters feature cache keys, data fingerprints and run records, so it
     * must not change for a given configuration between versions. Throws a one-line {@link fsil.api.FsilException}
     * for values that are invalid together (it is called when a reference is resolved, before any work). Default: {@code id[every parameter=value]}, or
     * the id alone for a backbone without parameters.
     */
    default String describe(Params params) {
        return params.asText().isEmpty() ? id() : new fsil.api.PluginRef(id(), params.asText()).text();
    }

    /**
     * The dataset seen through this backbone.
     *
     * @param raw      the dataset before any backbone
     * @param params   resolved parameters ({@link #params(java.util.Map)})
     * @param seed     the training seed ({@code --backbone-seed}); ignored by a backbone that does not learn
     * @param cacheDir where learnt features are cached
     */
    FeatureSet apply(RawDataset raw, Params params, long seed, Path cacheDir);
}
