package fsil.data;

import java.nio.file.Path;

/**
 * A dataset plugin: a name on the command line ({@code --datasets NAME[:ARGUMENTS]}), a catalog row and a loader.
 * Register an implementation (public, with a public no-argument constructor) in
 * {@code META-INF/services/fsil.data.Dataset}; it then appears in {@code fsil datasets} and runs in every
 * protocol without any change to fsil.
 */
public interface Dataset {

    /** The name before the first ':' of a dataset reference, e.g. {@code digits}, {@code synthetic}, {@code dir}. */
    String name();

    /** The catalog row. Never throws for data missing on this machine: it says so and how to get it. */
    DatasetInfo info(Path cacheDir);

    /**
     * The raw data (before a backbone).
     *
     * @param arguments what follows {@code name:} in the reference ("" when nothing does), e.g.
     *                  {@code classes=40,dim=64} or a path
     * @param cacheDir  where generated data may be cached
     * @throws fsil.api.FsilException with a one-line message for bad arguments or missing data
     */
    RawDataset load(String arguments, Path cacheDir);
}
