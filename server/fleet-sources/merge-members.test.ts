import { describe, expect, it } from 'vitest';
import type { ConnectableMember, MemberSpec } from './fleet-source';
import { mergeMembers } from './merge-members';

const credentials = async () => ({ token: 't' });
const connectable = (id: string, kind: 'kubeconfig' | 'hub', clusterID?: string): ConnectableMember => ({
  id,
  name: id,
  discoveredBy: { kind, name: kind === 'hub' ? 'hub' : '/kubeconfig' },
  connection: { kind: 'endpoint', endpoint: { server: `https://${id}` }, credentials },
  fingerprint: id,
  ...(clusterID ? { clusterID } : {}),
});

describe('merging the sources into one fleet', () => {
  it('one cluster reached by kubeconfig and by hub is one row: the kubeconfig one', () => {
    const hub: MemberSpec[] = [connectable('spoke-on-hub', 'hub', 'id-1'), connectable('other', 'hub', 'id-2')];
    const kubeconfig: MemberSpec[] = [connectable('spoke', 'kubeconfig')];
    const plan = mergeMembers([hub, kubeconfig], new Map([['spoke', 'id-1']]));
    expect(plan.connect.map((member) => member.id)).toEqual(['spoke', 'other']);
    expect(plan.joined).toEqual(new Map([['spoke-on-hub', 'spoke']]));
  });

  it('the same name and the same cluster ID both ways: joined, not waiting', () => {
    const plan = mergeMembers(
      [[connectable('steady', 'hub', 'id-9')], [connectable('steady', 'kubeconfig')]],
      new Map([['steady', 'id-9']]),
    );
    expect(plan.connect.map((member) => member.discoveredBy.kind)).toEqual(['kubeconfig']);
    expect(plan.waiting).toEqual([]);
    expect(plan.joined).toEqual(new Map([['steady', 'steady']]));
  });

  it('a name found twice keeps the first and the other waits, saying who has the name', () => {
    const plan = mergeMembers([[connectable('a', 'kubeconfig')], [connectable('a', 'hub')]], new Map(), 'T');
    expect(plan.connect.map((member) => member.discoveredBy.kind)).toEqual(['kubeconfig']);
    expect(plan.waiting).toEqual([
      expect.objectContaining({
        id: 'a@hub',
        waiting: { reason: 'the name "a" is already a cluster found by kubeconfig /kubeconfig', since: 'T' },
      }),
    ]);
  });

  it('waiting members stay in the plan with their reason', () => {
    const waiting: MemberSpec = {
      id: 'w',
      name: 'w',
      discoveredBy: { kind: 'hub', name: 'hub' },
      waiting: { reason: 'no token', since: 'T0' },
    };
    expect(mergeMembers([[waiting]]).waiting).toEqual([waiting]);
  });
});
