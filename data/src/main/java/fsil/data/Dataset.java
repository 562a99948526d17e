package fsil.data;

import fsil.api.Params;
import fsil.api.Plugin;

import java.nio.file.Path;

/**
 * A dataset plugin: an id and typed parameters on the command line ({@code --datasets 'synthetic[classes=40]'}), a
 * catalog row and a loader. Register an implementation (public, with an {@code @Inject} or a public no-argument constructor) in
 * {@code META-INF/services/fsil.data.Dataset}; it then appears in {@code fsil datasets} and runs in every protocol
 * without any change to fsil. The older spelling {@code id:key=value,...} (and {@code dir:/path}, {@code file:/path}
 * for a dataset with a {@code path} parameter) is still accepted ({@link Datasets#resolve}).
 */
public interface Dataset extends Plugin {

    @Override
    default String kind() {
        return "dataset";
    }

    /** The catalog row. Never throws for data missing on this machine: it says so and how to get it. */
    DatasetInfo info(Path cacheDir);

    /**
     * The raw data (before a backbone).
     *
     * @param params   resolved parameters ({@link #params(java.util.Map)})
     * @param cacheDir where generated data may be cached
     * @throws fsil.api.FsilException with a one-line message for bad parameters or missing data
     */
    RawDataset load(Params params, Path cacheDir);
}
