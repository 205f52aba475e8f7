#!/usr/bin/env bash
# Creates the OAuthClient users log in through and the Secret the dashboard reads its client secret (and the key that
# seals its sessions) from, with one fresh random secret (never on a command line). Run as a cluster admin after `oc apply -k deploy/openshift`: the
# redirect URI is the Route's. Running it again rotates the secret; the previous one stays valid as an additional
# secret until the next rotation, so logins keep working while the kubelet refreshes the mounted Secret. Server-side
# apply: no last-applied annotation keeps a copy of the secret.
# usage: deploy/openshift/create-oauth-client.sh [namespace]
set -euo pipefail
namespace=${1:-update-health}
host=$(oc -n "$namespace" get route update-health -o jsonpath='{.spec.host}')
if [ -z "$host" ]; then
  echo "create-oauth-client: Route update-health in $namespace has no host (run oc apply -k deploy/openshift first)" >&2
  exit 1
fi
previous=$(oc get oauthclient update-health -o jsonpath='{.secret}' 2>/dev/null || true)
secret=$(openssl rand -hex 32)
additional=""
if [ -n "$previous" ]; then additional="\"$previous\""; fi
# The session key seals the OAuth tokens kept with sessions; it is made once and kept, since a new key ends every session.
session_key=$(oc -n "$namespace" get secret update-health-oauth-client -o jsonpath='{.data.session-key}' 2>/dev/null \
  | base64 -d 2>/dev/null || true)
if [ -z "$session_key" ]; then session_key=$(openssl rand -base64 32); fi
oc -n "$namespace" create secret generic update-health-oauth-client --from-file=client-secret=<(printf '%s' "$secret") \
  --from-file=session-key=<(printf '%s' "$session_key") --dry-run=client -o yaml | oc apply --server-side -f -
oc apply --server-side -f - <<EOF
apiVersion: oauth.openshift.io/v1
kind: OAuthClient
metadata:
  name: update-health
grantMethod: auto
redirectURIs: ["https://$host/auth/callback"]
# The dashboard asks who the user is and nothing else: its tokens cannot read or change the cluster.
scopeRestrictions:
  - literals: ["user:info", "user:check-access"]
secret: "$secret"
additionalSecrets: [$additional]
EOF
echo "OAuthClient update-health: redirect https://$host/auth/callback; client secret in Secret $namespace/update-health-oauth-client"
