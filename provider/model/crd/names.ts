/**
 * Kubernetes' name and label formats (apimachinery's validation package): DNS-1123 subdomains and
 * labels, qualified names (label and annotation keys) and label values, each with the API
 * server's message, so a refused name reads as `kubectl apply` would say it.
 */

const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const qualifiedNamePart = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export interface NameFormat {
  test(value: string): boolean;
  /** What the API server says when the value does not match. */
  message: string;
}

export const nameFormats: Record<string, NameFormat> = {
  'dns1123-subdomain': {
    test: (v) => v.length <= 253 && dns1123Subdomain.test(v),
    message:
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com'), at most 253 characters",
  },
  'dns1123-label': {
    test: (v) => v.length <= 63 && dns1123Label.test(v),
    message:
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name'), at most 63 characters",
  },
  'qualified-name': {
    test: isQualifiedName,
    message:
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName', or 'example.com/MyName' with an optional DNS subdomain prefix), at most 63 characters",
  },
  'label-value': {
    test: (v) => v.length <= 63 && labelValue.test(v),
    message:
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character, at most 63 characters",
  },
};

function isQualifiedName(value: string): boolean {
  const slash = value.lastIndexOf('/');
  const name = slash < 0 ? value : value.slice(slash + 1);
  const prefix = slash < 0 ? undefined : value.slice(0, slash);
  if (prefix !== undefined && !nameFormats['dns1123-subdomain']!.test(prefix)) return false;
  return name.length <= 63 && qualifiedNamePart.test(name);
}
