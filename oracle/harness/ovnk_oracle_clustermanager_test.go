// The ovnk oracle's cluster-manager side: upstream's own cluster manager (pkg/clustermanager
// NewClusterManager, Start, as clustermanager_test.go and pkg/ovn/hybrid_test.go run it) on a
// fake clientset holding a topology's nodes (only the annotations ovnkube-node writes), namespaces,
// pods, CUDNs/UDNs (its UDN controller renders their NADs) and CNCs; once the annotations are
// quiet, the ones it wrote (node ids and subnets, NAD network ids and tunnel keys, CNC subnets and
// tunnel keys) are the output. ovnk-pulumi's, copied beside ovnk_oracle_test.go by `npm run oracle`.
package ovn

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	fakenadclient "github.com/k8snetworkplumbingwg/network-attachment-definition-client/pkg/client/clientset/versioned/fake"
	frrfake "github.com/metallb/frr-k8s/pkg/client/clientset/versioned/fake"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/record"

	anpfake "sigs.k8s.io/network-policy-api/pkg/client/clientset/versioned/fake"

	fakeipamclaimclient "github.com/k8snetworkplumbingwg/ipamclaims/pkg/crd/ipamclaims/v1alpha1/apis/clientset/versioned/fake"
	mnpfake "github.com/k8snetworkplumbingwg/multi-networkpolicy/pkg/client/clientset/versioned/fake"
	ocpnetworkfake "github.com/openshift/client-go/network/clientset/versioned/fake"

	cm "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/clustermanager"
	adminpolicybasedroutefake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/adminpolicybasedroute/v1/apis/clientset/versioned/fake"
	networkconnectfake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/clusternetworkconnect/v1/apis/clientset/versioned/fake"
	egressfirewallfake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/egressfirewall/v1/apis/clientset/versioned/fake"
	egressipfake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/egressip/v1/apis/clientset/versioned/fake"
	egressqosfake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/egressqos/v1/apis/clientset/versioned/fake"
	egressservicefake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/egressservice/v1/apis/clientset/versioned/fake"
	rafake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/routeadvertisements/v1/apis/clientset/versioned/fake"
	uplinkfake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/uplink/v1alpha1/apis/clientset/versioned/fake"
	udnv1 "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/userdefinednetwork/v1"
	udnclientfake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/userdefinednetwork/v1/apis/clientset/versioned/fake"
	vtepfake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/vtep/v1/apis/clientset/versioned/fake"
	"github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/factory"
	"github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/util"
)

// ovnkOracleAnnotations are the k8s.ovn.org/ annotations the cluster manager left, by object.
type ovnkOracleAnnotations struct {
	Nodes    map[string]map[string]string `json:"nodes"`
	NADs     map[string]map[string]string `json:"nads"`
	Connects map[string]map[string]string `json:"connects"`
}

func ovnkOracleOwnAnnotations(all map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range all {
		if strings.HasPrefix(k, "k8s.ovn.org/") {
			out[k] = v
		}
	}
	return out
}

// ovnkOracleClusterManager runs upstream's cluster manager on the input's objects and returns the
// annotations it wrote once they have not changed for QuietMillis.
func ovnkOracleClusterManager(input *ovnkOracleInput, errorLog *ovnkOracleErrorLog) (result *ovnkOracleAnnotations, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	if err := ovnkOracleConfigure(input.Settings); err != nil {
		return nil, err
	}
	var v1Objects []runtime.Object
	for i := range input.Nodes {
		v1Objects = append(v1Objects, &input.Nodes[i])
	}
	for i := range input.Namespaces {
		v1Objects = append(v1Objects, &input.Namespaces[i])
	}
	for i := range input.Pods {
		v1Objects = append(v1Objects, &input.Pods[i])
	}
	var udnObjects []runtime.Object
	for i, n := range input.Networks {
		var obj runtime.Object
		switch n.Kind {
		case "ClusterUserDefinedNetwork":
			obj = &udnv1.ClusterUserDefinedNetwork{}
		case "UserDefinedNetwork":
			obj = &udnv1.UserDefinedNetwork{}
		default:
			return nil, fmt.Errorf("networks[%d].kind: %q is not ClusterUserDefinedNetwork or UserDefinedNetwork", i, n.Kind)
		}
		if err := json.Unmarshal(n.Object, obj); err != nil {
			return nil, fmt.Errorf("networks[%d].object: %w", i, err)
		}
		udnObjects = append(udnObjects, obj)
	}
	var cncObjects []runtime.Object
	for i := range input.Connects {
		cncObjects = append(cncObjects, &input.Connects[i])
	}
	clients := &util.OVNClientset{
		KubeClient:                fake.NewSimpleClientset(v1Objects...),
		ANPClient:                 anpfake.NewSimpleClientset(),
		EgressIPClient:            egressipfake.NewSimpleClientset(),
		EgressFirewallClient:      egressfirewallfake.NewSimpleClientset(),
		OCPNetworkClient:          ocpnetworkfake.NewSimpleClientset(),
		EgressQoSClient:           egressqosfake.NewSimpleClientset(),
		NetworkAttchDefClient:     fakenadclient.NewSimpleClientset(),
		MultiNetworkPolicyClient:  mnpfake.NewSimpleClientset(),
		EgressServiceClient:       egressservicefake.NewSimpleClientset(),
		AdminPolicyRouteClient:    adminpolicybasedroutefake.NewSimpleClientset(),
		IPAMClaimsClient:          fakeipamclaimclient.NewSimpleClientset(),
		UserDefinedNetworkClient:  udnclientfake.NewSimpleClientset(udnObjects...),
		NetworkConnectClient:      networkconnectfake.NewSimpleClientset(cncObjects...),
		RouteAdvertisementsClient: rafake.NewSimpleClientset(),
		FRRClient:                 frrfake.NewSimpleClientset(),
		UplinkClient:              uplinkfake.NewSimpleClientset(),
		VTEPClient:                vtepfake.NewSimpleClientset(),
	}
	cmClients := clients.GetClusterManagerClientset()
	wf, err := factory.NewClusterManagerWatchFactory(cmClients)
	if err != nil {
		return nil, fmt.Errorf("watch factory: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// its events (a UDN's or CNC's condition, an allocation that failed) go to the error log
	recorder := record.NewFakeRecorder(1000)
	defer func() {
		for {
			select {
			case event := <-recorder.Events:
				_, _ = errorLog.Write([]byte("event: " + event + "\n"))
			default:
				return
			}
		}
	}()
	manager, err := cm.NewClusterManager(cmClients, wf, "identity", recorder)
	if err != nil {
		return nil, fmt.Errorf("cluster manager: %w", err)
	}
	if err := manager.Start(ctx); err != nil {
		return nil, fmt.Errorf("cluster manager: Start: %w", err)
	}
	snapshot := func() *ovnkOracleAnnotations {
		a := &ovnkOracleAnnotations{Nodes: map[string]map[string]string{}, NADs: map[string]map[string]string{}, Connects: map[string]map[string]string{}}
		nodes, _ := clients.KubeClient.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		for _, n := range nodes.Items {
			a.Nodes[n.Name] = ovnkOracleOwnAnnotations(n.Annotations)
		}
		nads, _ := clients.NetworkAttchDefClient.K8sCniCncfIoV1().NetworkAttachmentDefinitions("").List(ctx, metav1.ListOptions{})
		for _, n := range nads.Items {
			a.NADs[n.Namespace+"/"+n.Name] = ovnkOracleOwnAnnotations(n.Annotations)
		}
		cncs, _ := clients.NetworkConnectClient.K8sV1().ClusterNetworkConnects().List(ctx, metav1.ListOptions{})
		for _, c := range cncs.Items {
			a.Connects[c.Name] = ovnkOracleOwnAnnotations(c.Annotations)
		}
		return a
	}
	quiet, timeout := time.Duration(input.Settings.QuietMillis)*time.Millisecond, time.Duration(input.Settings.TimeoutMillis)*time.Millisecond
	deadline, last, since := time.Now().Add(timeout), "", time.Now()
	for time.Now().Before(deadline) {
		now, _ := json.Marshal(snapshot())
		if string(now) != last {
			last, since = string(now), time.Now()
		} else if time.Since(since) >= quiet {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	return snapshot(), nil
}
