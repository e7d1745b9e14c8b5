// The YAML editor's starting points: the manifests the seed articles teach with, plus a blank page.
// seeds/000: the nginx Deployment; seeds/004: my-replicaset; seeds/003: the user-service Pod (three
// containers: user, MySQL, Redis) and the same Pod template under a Deployment with 3 replicas.

export interface EditorPreset {
  readonly id: string;
  readonly label: string;
  readonly yaml: string;
}

const nginxDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels:
    app: nginx
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
`;

const myReplicaSet = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  namespace: default
  name: my-replicaset
spec:
  replicas: 2
  selector:
    matchLabels:
      app: my-app
  template:
    metadata:
      labels:
        app: my-app
    spec:
      containers:
      - name: my-container
        image: nginx
        ports:
        - containerPort: 80
`;

const userServiceContainers = `      - name: user
        image: user
        ports:
        - containerPort: 10086
        imagePullPolicy: IfNotPresent
      - name: mysql
        image: mysql-for-user
        ports:
        - containerPort: 3306
        env:
        - name: MYSQL_ROOT_PASSWORD
          value: "123456"
        imagePullPolicy: IfNotPresent
      - name: redis
        image: redis:5.0
        ports:
        - containerPort: 6379
        imagePullPolicy: IfNotPresent
`;

const userServicePod = `apiVersion: v1
kind: Pod
metadata:
  name: user-service
  labels:
    name: user-service
spec:
  containers:
${userServiceContainers.replace(/^ {4}/gm, '')}`;

const userServiceDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: user-service
  labels:
    name: user-service
spec:
  replicas: 3
  selector:
    matchLabels:
      name: user-service
  template:
    metadata:
      labels:
        name: user-service
    spec:
      containers:
${userServiceContainers}`;

export const editorPresets: readonly EditorPreset[] = [
  { id: 'nginx-deployment', label: 'nginx Deployment (seed 000)', yaml: nginxDeployment },
  { id: 'my-replicaset', label: 'my-replicaset (seed 004)', yaml: myReplicaSet },
  { id: 'user-service-pod', label: 'user-service Pod (seed 003)', yaml: userServicePod },
  { id: 'user-service-deployment', label: 'user-service Deployment (seed 003)', yaml: userServiceDeployment },
  { id: 'blank', label: 'Blank', yaml: '' },
];
