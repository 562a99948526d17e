package fsil.eval.protocol;

import fsil.api.FsilException;

import java.util.List;

/** The built-in protocols by name. */
public final class Protocols {
    private static final List<Protocol> ALL = List.of(new FewShotProtocol(), new ClassIncrementalProtocol(),
            new FewShotClassIncrementalProtocol(), new NcmfProtocol(), new ClassesSweepProtocol());

    private Protocols() {
    }

    public static List<Protocol> all() {
        return ALL;
    }

    public static Protocol get(String name) {
        for (Protocol p : ALL) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new FsilException("unknown protocol '" + name + "'. Known protocols: "
                + String.join(", ", ALL.stream().map(Protocol::name).toList()));
    }
}
