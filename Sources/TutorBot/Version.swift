/// The release version: `make release` names the tarball after it and `permitready --version` prints it.
public enum PermitReadyVersion {
    public static let string = "0.4.0"
}
